package dev.cadastro.core.sms;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.HoldRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Port: the dispatches of one-time codes, each moved together with its SMS credit in the ledger. Every
 * method but {@link #check} (a read, then one auto-committed write) is one transaction; none holds a
 * lock while the provider is called (the use case calls it between {@link #begin} and {@link
 * #accepted} or {@link #unavailable}). All times come from the caller's clock.
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
    Begun begin(OtpDispatch dispatch, String phoneKey, byte[] mac, HoldRequest hold, String clientRef);

    /** What {@link #begin} did. */
    sealed interface Begun {
        /** The hold is placed and the dispatch is stored, {@link Delivery#ENVIANDO}. */
        record Started(OtpDispatch dispatch) implements Begun {}

        /** Nothing was written: the phone's limit allows the next send after {@code retryIn}. */
        record Throttled(Duration retryIn) implements Begun {}

        /**
         * Nothing was written: the same client reference already made this dispatch (a retried request),
         * which was not refused as unavailable. The caller answers it instead of sending again.
         */
        record Existing(OtpDispatch dispatch) implements Begun {}
    }

    /**
     * The provider accepted the message: posts the hold (the credit is charged) and records the provider's
     * id, in one transaction; when a failed-delivery receipt came first, also returns the credit.
     *
     * When the dispatch's sending lease already ran out ({@link Delivery#INCERTO}, hold released), nothing
     * is charged and the dispatch is returned as it is.
     *
     * @throws IllegalStateException when the dispatch is neither sending nor uncertain
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
     * One check of a dispatch of the account, one statement: when the dispatch is {@link
     * Delivery#checkable() checkable}, pending, under {@link OtpDispatch#MAX_ATTEMPTS} attempts and not
     * expired at {@code now}, it counts the attempt, and marks the dispatch verified when the typed code's
     * MAC under the dispatch's key ({@code typedMacs} by key id) equals the stored MAC: however many checks
     * run at once, at most five are ever counted and one at most verifies. It returns after that statement
     * committed.
     *
     * <p>The comparison's time must not depend on the stored MAC: in constant time ({@link
     * Keyring#matches}, for a store that reads the MAC out) or over blinded values. A key id missing
     * from {@code typedMacs} (a dropped key) never matches; the attempt still counts.
     *
     * @param typedMacs the typed code's MAC for this dispatch under each key id the server has
     * @return empty when the account has no checkable dispatch of that id
     */
    Optional<Checked> check(AccountId account, String id, Instant now, Map<String, byte[]> typedMacs);

    /**
     * The result of {@link #check}.
     *
     * @param dispatch the dispatch after the check
     * @param valid whether this check matched and verified it
     */
    record Checked(OtpDispatch dispatch, boolean valid) {
        public Checked {
            Objects.requireNonNull(dispatch, "dispatch");
        }
    }
}
