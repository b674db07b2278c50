package dev.cadastro.core.idempotency;

import dev.cadastro.core.account.AccountId;
import java.time.Duration;
import java.time.Instant;

/**
 * Port: the remembered requests of client idempotency keys, one row per (account, key), shared by
 * every server on the store. Implementations make {@link #claim} atomic: of any number of concurrent
 * claims of one new key, exactly one is {@link Claim.Acquired}.
 */
public interface IdempotencyStore {

    /** What a claim of a key found. */
    sealed interface Claim {
        /**
         * The caller runs the request. {@code id} is the same for every attempt of this (account, key)
         * until it expires, so work keyed by it (a ledger charge) is done at most once across attempts.
         * {@code leaseUntil} fences this attempt: completing or releasing with it changes nothing once
         * another attempt took the key over.
         */
        record Acquired(long id, Instant leaseUntil) implements Claim {}

        /** The request ran before; its answer, exactly as {@link #complete} stored it. */
        record Completed(byte[] answer) implements Claim {}

        /** The key was first used at {@code firstUsedAt} for a request with another fingerprint. */
        record OtherRequest(Instant firstUsedAt) implements Claim {}

        /** Another attempt holds the key until {@code leaseUntil}; ask again later. */
        record InFlight(Instant leaseUntil) implements Claim {}
    }

    /**
     * Claims the key for one attempt of a request: a new key (or one first used more than {@code
     * retention} ago) is recorded with the fingerprint and acquired; a key whose earlier attempt did
     * not complete is acquired again once that attempt's lease ran out or was released.
     *
     * @param lease how long the attempt holds the key before another may take it over
     */
    Claim claim(
            AccountId account,
            ClientKey key,
            RequestFingerprint fingerprint,
            Instant now,
            Duration lease,
            Duration retention);

    /**
     * Records the answer of an acquired attempt; later claims replay it. Only while the attempt still
     * holds the key ({@code leaseUntil} as acquired); returns whether it did.
     */
    boolean complete(long id, Instant leaseUntil, byte[] answer, Instant now);

    /**
     * Extends the lease of an attempt still running: {@code leaseUntil} moves to {@code newLeaseUntil} if
     * the attempt still holds it (no answer yet, its lease still {@code leaseUntil}); false when another
     * attempt took the key over, or it was completed or released.
     */
    boolean renew(long id, Instant leaseUntil, Instant newLeaseUntil);

    /**
     * The lease the key's attempt holds now ({@code leaseUntil} as the store has it), once any change of it
     * still being written has committed or rolled back; empty when the request was answered, released or
     * forgotten. A renewal whose outcome is unknown (its answer was lost) is resolved by this read.
     */
    java.util.Optional<Instant> leaseUntil(long id);

    /**
     * Ends an acquired attempt without an answer: the next claim with the same request runs it again.
     * Only while the attempt still holds the key; a stale attempt cannot free a key another one holds.
     */
    void release(long id, Instant leaseUntil);

    /** Forgets keys first used before {@code cutoff}; returns how many. */
    long purge(Instant cutoff);
}
