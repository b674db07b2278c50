package dev.cadastro.core.sms;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.HoldRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Port: the dispatches of one-time codes, each moved together with its SMS credit in the ledger. Every
 * method is one transaction; none holds a lock while the provider is called (the use case calls it
 * between {@link #begin} and {@link #accepted} or {@link #unavailable}). All times come from the
 * caller's clock.
 */
public interface OtpStore {

    /**
     * Starts a dispatch, atomically against other sends to the same account and phone: reads the
     * phone's counted dispatches of the last hour and, when {@link OtpThrottle#wait} allows a send at
     * {@code dispatch.createdAt()}, places the hold and inserts the dispatch with the code's MAC, both or
     * neither.
     *
     * @param phoneKey a pseudonymous key of the destination (the throttle's unit with the account)
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the SMS balance cannot hold the
     *     credit; nothing is written
     */
    Begun begin(OtpDispatch dispatch, String phoneKey, byte[] mac, HoldRequest hold);

    /** What {@link #begin} did. */
    sealed interface Begun {
        /** The hold is placed and the dispatch is stored, {@link Delivery#ENVIANDO}. */
        record Started(OtpDispatch dispatch) implements Begun {}

        /** Nothing was written: the phone's limit allows the next send after {@code retryIn}. */
        record Throttled(Duration retryIn) implements Begun {}
    }

    /**
     * The provider accepted the message: posts the hold (the credit is charged) and records the provider's
     * id, in one transaction; when a failed-delivery receipt came first, also returns the credit.
     *
     * @throws IllegalStateException when the dispatch is no longer sending (its lease ran out)
     */
    OtpDispatch accepted(AccountId account, String id, String providerMessageId, Instant now);

    /** The provider was unavailable: releases the hold (nothing charged) and marks the dispatch. */
    OtpDispatch unavailable(AccountId account, String id, Instant now);

    /**
     * A failed-delivery receipt: returns the credit of an accepted dispatch, once, however often the
     * receipt arrives. Unknown references change nothing.
     *
     * @return true when this call returned the credit
     */
    boolean deliveryFailed(String id, Instant now);

    /**
     * Dispatches still sending that were created at or before {@code createdBefore} (their server stopped
     * between the hold and the provider's answer): releases their holds and marks them {@link
     * Delivery#INCERTO}, which still counts against the phone's throttle.
     *
     * @return how many were released
     */
    int abandonSending(Instant createdBefore, Instant now);

    /** A dispatch of the account, whatever its state. */
    Optional<OtpDispatch> find(AccountId account, String id);

    /**
     * Counts one check of a dispatch of the account, in one statement that also requires it to be
     * {@link Delivery#checkable() checkable}, pending, under {@link OtpDispatch#MAX_ATTEMPTS} attempts
     * and not expired at {@code now}: however many checks run at once, at most five are ever counted.
     *
     * @return empty when the account has no checkable dispatch of that id; otherwise the dispatch (after
     *     the count, when one was taken) and, only when an attempt was taken, the stored MAC
     */
    Optional<Attempt> takeAttempt(AccountId account, String id, Instant now);

    /**
     * A counted check matched: marks the dispatch verified unless another check did first.
     *
     * @return the dispatch when this call verified it; empty when it was no longer pending
     */
    Optional<OtpDispatch> verify(AccountId account, String id, Instant now);

    /**
     * The result of {@link #takeAttempt}.
     *
     * @param mac the stored MAC, present only when an attempt was counted
     */
    record Attempt(OtpDispatch dispatch, Optional<byte[]> mac) {
        public Attempt {
            Objects.requireNonNull(dispatch, "dispatch");
            Objects.requireNonNull(mac, "mac");
        }
    }
}
