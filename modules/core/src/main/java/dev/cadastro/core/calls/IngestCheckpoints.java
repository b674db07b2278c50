package dev.cadastro.core.calls;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: how far each {@link CallSource} has been ingested, and which server is ingesting it now. A
 * server claims a source under a lease (no database lock is held while the source, maybe an outside
 * exchange, is read), ingests the changes after the checkpoint, then advances it; a server that died
 * holding a source loses it when the lease runs out, and the next one starts from the last checkpoint.
 */
public interface IngestCheckpoints {

    /**
     * Takes {@code source} for {@code owner} until {@code now + lease}, unless another owner holds a lease
     * that has not run out; the same owner may claim again (which renews its lease).
     *
     * @param startIfNew the checkpoint a source that was never ingested starts from
     * @return the point the source was ingested until, or empty when another owner holds it
     */
    Optional<Instant> claim(String source, String owner, Instant now, Duration lease, Instant startIfNew);

    /**
     * Moves the checkpoint forward to {@code until} (never back) and keeps the lease; false when {@code
     * owner} no longer holds the source (another server took it after the lease ran out).
     */
    boolean advance(String source, String owner, Instant until);

    /** Ends {@code owner}'s lease on {@code source} now, so the next claim by anyone succeeds at once. */
    void release(String source, String owner);

    /**
     * Keeps a record of {@code source} that cannot be ingested, with why, so the source moves past it
     * without losing it: an operator reads the rejects, fixes the exchange's data and replays it.
     *
     * @param reason which rule it broke, or what the store said when it refused it
     * @param at the tick that rejected it
     */
    void reject(String source, CallRecord call, String reason, Instant at);
}
