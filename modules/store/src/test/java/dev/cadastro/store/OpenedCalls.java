package dev.cadastro.store;

import dev.cadastro.core.idempotency.IdempotentCalls;
import java.util.ArrayList;
import java.util.List;

/** The {@link IdempotentCalls} a test opened, closed together after it (their lease renewal threads). */
final class OpenedCalls implements AutoCloseable {
    private final List<IdempotentCalls> opened = new ArrayList<>();

    IdempotentCalls track(IdempotentCalls calls) {
        opened.add(calls);
        return calls;
    }

    @Override
    public void close() {
        opened.forEach(IdempotentCalls::close);
        opened.clear();
    }
}
