package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.List;

/**
 * Port: a telephone exchange the service ingests calls from, every two minutes by default.
 *
 * <p>{@link #changes} is a pure read: asked twice for the same interval it answers the same calls (or
 * newer states of them), so an ingest that failed half-way is simply asked again, and ingest is
 * idempotent by call id. A source that writes recordings does so before it reports them archived.
 */
public interface CallSource {

    /** A stable name, the key of this source's ingest checkpoint. */
    String name();

    /**
     * The state at {@code to} of every call of this source whose classification, reclassification or
     * archiving happened in {@code (from, to]}.
     */
    List<CallRecord> changes(Instant from, Instant to) throws Exception;
}
