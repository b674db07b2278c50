package dev.cadastro.core.idempotency;

import dev.cadastro.core.account.AccountId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

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
     * holds the key (its lease is one of {@code fences}, the fences this attempt may have written); returns
     * whether it did.
     */
    boolean complete(long id, List<Instant> fences, byte[] answer, Instant now);

    /**
     * Extends the lease of an attempt still running: the lease moves to {@code newLeaseUntil} if the
     * attempt still holds it (no answer yet, its lease one of {@code fences}); false when another attempt
     * took the key over, or it was completed or released.
     *
     * @param fences every fence this attempt may have written: the one last confirmed, then those of
     *     renewals whose outcome is unknown (they may commit later still)
     */
    boolean renew(long id, List<Instant> fences, Instant newLeaseUntil);

    /**
     * Ends an acquired attempt without an answer: the next claim with the same request runs it again.
     * Only while the attempt still holds the key (its lease one of {@code fences}); a stale attempt cannot
     * free a key another one holds.
     */
    void release(long id, List<Instant> fences);

    /** Forgets keys first used before {@code cutoff}; returns how many. */
    long purge(Instant cutoff);
}
