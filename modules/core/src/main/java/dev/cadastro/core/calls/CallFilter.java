package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The filters of {@code GET /v1/ligacoes}, combined with AND; text comparisons are exact.
 *
 * @param since only calls with {@code datahistorico} at or after this moment
 * @param until only calls with {@code datahistorico} at or before this moment
 * @param agent the agent's login
 * @param queue the exact queue name
 * @param result the exact result description
 */
public record CallFilter(
        Optional<Instant> since,
        Optional<Instant> until,
        Optional<String> agent,
        Optional<String> queue,
        Optional<String> result) {

    public static final CallFilter NONE =
            new CallFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public CallFilter {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(result, "result");
    }

    /**
     * A canonical text of the filters, the same for equal filters and different for different ones,
     * which a cursor binds to (instants as epoch microseconds, text values length-prefixed).
     */
    public String canonical() {
        StringBuilder b = new StringBuilder(64);
        b.append("s=").append(since.map(CallFilter::micros).orElse("")).append(';');
        b.append("u=").append(until.map(CallFilter::micros).orElse("")).append(';');
        text(b, "a", agent);
        text(b, "q", queue);
        text(b, "r", result);
        return b.toString();
    }

    private static String micros(Instant t) {
        return Long.toString(Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000));
    }

    private static void text(StringBuilder b, String name, Optional<String> value) {
        b.append(name).append('=');
        value.ifPresent(v -> b.append(v.length()).append(':').append(v));
        b.append(';');
    }
}
