package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test-scope stand-in for the PostgreSQL call store, so the use case's rules (limit, window, cursor,
 * integration) are tested here; the store's own keyset query is tested against a real PostgreSQL.
 */
final class MemoryCallStore implements CallStore {
    private final Map<String, CallRecord> calls = new ConcurrentHashMap<>();

    @Override
    public IngestResult ingest(List<CallRecord> incoming) {
        incoming.forEach(c -> calls.put(c.integrationId() + "/" + c.id(), c));
        return IngestResult.NOTHING;
    }

    @Override
    public List<CallRecord> page(
            long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit) {
        return calls.values().stream()
                .filter(c -> c.integrationId() == integrationId && c.ready())
                .filter(c -> !c.classifiedAt().isBefore(windowStart))
                .filter(c ->
                        filter.since().map(s -> !c.classifiedAt().isBefore(s)).orElse(true))
                .filter(c ->
                        filter.until().map(u -> !c.classifiedAt().isAfter(u)).orElse(true))
                .filter(c -> filter.agent().map(c.agentLogin()::equals).orElse(true))
                .filter(c -> filter.queue().map(c.queue()::equals).orElse(true))
                .filter(c -> filter.result().map(c.resultDescription()::equals).orElse(true))
                .filter(c -> after.map(a -> c.position().compareTo(a) > 0).orElse(true))
                .sorted((a, b) -> a.position().compareTo(b.position()))
                .limit(limit)
                .toList();
    }

    @Override
    public Optional<CallRecord> find(long integrationId, String id) {
        return Optional.ofNullable(calls.get(integrationId + "/" + id));
    }
}
