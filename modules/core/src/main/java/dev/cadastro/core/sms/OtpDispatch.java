package dev.cadastro.core.sms;

import dev.cadastro.core.account.AccountId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One SMS one-time code and its dispatch: the state machine of the code ({@link OtpStatus}) and of its
 * delivery ({@link Delivery}). Immutable: every transition is a method returning the next value, and
 * refuses a move the machine does not have. The code itself is not here: only its HMAC, kept by the
 * store under {@link #keyId}.
 *
 * <pre>
 * code:     pendente --check matches--------------------> verificado
 *           pendente --5th wrong check------------------> bloqueado  (read from the attempts)
 *           pendente --clock reaches expiresAt----------> expirado   (read from the clock)
 * delivery: enviando --provider accepts-----------------> aceito  --failed-delivery receipt--> falhou
 *           enviando --provider unavailable-------------> indisponivel
 *           enviando --lease runs out (server died)-----> incerto
 * </pre>
 *
 * A failed-delivery receipt that arrives while still {@code enviando} is remembered ({@link
 * #failureReported}) and applied when the provider's acceptance is recorded.
 *
 * @param id the dispatch id ({@code envio_id})
 * @param phoneMasked the destination with the middle digits hidden, the only form logs and operators see
 *     outside the simulated provider's inbox
 * @param attempts checks made so far, 0 to {@link #MAX_ATTEMPTS}
 * @param state {@code PENDENTE} or {@code VERIFICADO}; {@code BLOQUEADO} (five attempts, none
 *     matched) and {@code EXPIRADO} are never stored: {@link #status(Instant)} derives them, so a store
 *     can count an attempt and check the state and the expiry in one statement without a second write
 */
public record OtpDispatch(
        String id,
        AccountId account,
        String phoneMasked,
        int digits,
        String keyId,
        Instant createdAt,
        Instant expiresAt,
        int attempts,
        OtpStatus state,
        Delivery delivery,
        boolean failureReported) {

    /** Checks a code accepts; the fifth wrong one blocks it. */
    public static final int MAX_ATTEMPTS = 5;

    public OtpDispatch {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(phoneMasked, "phoneMasked");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(delivery, "delivery");
        if (attempts < 0 || attempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempts " + attempts + " must be 0 to " + MAX_ATTEMPTS);
        }
        if (state != OtpStatus.PENDENTE && state != OtpStatus.VERIFICADO) {
            throw new IllegalArgumentException(
                    "state " + state + " is read from the attempts and the clock, never stored");
        }
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("expiresAt " + expiresAt + " must be after createdAt " + createdAt);
        }
    }

    /** A new dispatch: the hold is placed and the provider is about to be called. */
    public static OtpDispatch sending(
            String id,
            AccountId account,
            String phoneMasked,
            int digits,
            String keyId,
            Instant now,
            Duration validity) {
        return new OtpDispatch(
                id,
                account,
                phoneMasked,
                digits,
                keyId,
                now,
                now.plus(validity),
                0,
                OtpStatus.PENDENTE,
                Delivery.ENVIANDO,
                false);
    }

    /**
     * The status at {@code now}: a pending code expires at {@code expiresAt} exactly (checkable at
     * {@code expiresAt - 1 ns}, not at {@code expiresAt}).
     */
    public OtpStatus status(Instant now) {
        if (state != OtpStatus.PENDENTE) {
            return state;
        }
        if (attempts >= MAX_ATTEMPTS) {
            return OtpStatus.BLOQUEADO;
        }
        return now.isBefore(expiresAt) ? OtpStatus.PENDENTE : OtpStatus.EXPIRADO;
    }

    /** Checks left at {@code now}: none unless the code is pending. */
    public int remainingAttempts(Instant now) {
        return status(now) == OtpStatus.PENDENTE ? MAX_ATTEMPTS - attempts : 0;
    }

    /**
     * A check at {@code now} whose code did or did not match. A check of a code that is not pending
     * changes nothing and is not valid; a check of a pending code counts one attempt, whatever it says.
     *
     * @throws IllegalStateException when the dispatch is not {@link Delivery#checkable()}
     */
    public Checked check(boolean matches, Instant now) {
        if (!delivery.checkable()) {
            throw new IllegalStateException("dispatch " + id + " is " + delivery.wire() + "; it cannot be checked");
        }
        if (status(now) != OtpStatus.PENDENTE) {
            return new Checked(this, false);
        }
        OtpStatus next = matches ? OtpStatus.VERIFICADO : OtpStatus.PENDENTE;
        return new Checked(with(attempts + 1, next, delivery, failureReported), matches);
    }

    /** The provider accepted the message: the credit is charged (and returned at once if a failure was reported). */
    public OtpDispatch accepted() {
        requireSending("accepted");
        return with(attempts, state, failureReported ? Delivery.FALHOU : Delivery.ACEITO, failureReported);
    }

    /** The provider was unavailable: the hold is released and the phone's throttle does not count it. */
    public OtpDispatch unavailable() {
        requireSending("unavailable");
        return with(attempts, state, Delivery.INDISPONIVEL, failureReported);
    }

    /** The lease of a dispatch stuck in sending ran out: the hold is released, the throttle still counts it. */
    public OtpDispatch abandoned() {
        requireSending("abandoned");
        return with(attempts, state, Delivery.INCERTO, failureReported);
    }

    /**
     * A failed-delivery receipt: an accepted dispatch becomes {@link Delivery#FALHOU} and its credit is
     * returned; one still sending remembers it; any other state ignores it (a second receipt included).
     */
    public Receipt deliveryFailed() {
        return switch (delivery) {
            case ACEITO -> new Receipt(with(attempts, state, Delivery.FALHOU, true), true);
            case ENVIANDO -> new Receipt(with(attempts, state, delivery, true), false);
            case INDISPONIVEL, FALHOU, INCERTO -> new Receipt(this, false);
        };
    }

    private void requireSending(String move) {
        if (delivery != Delivery.ENVIANDO) {
            throw new IllegalStateException(
                    "dispatch " + id + " is " + delivery.wire() + ", not enviando; it cannot be " + move);
        }
    }

    private OtpDispatch with(int attempts, OtpStatus state, Delivery delivery, boolean failureReported) {
        return new OtpDispatch(
                id,
                account,
                phoneMasked,
                digits,
                keyId,
                createdAt,
                expiresAt,
                attempts,
                state,
                delivery,
                failureReported);
    }

    /** The result of a check: the dispatch after it, and whether the code was accepted. */
    public record Checked(OtpDispatch after, boolean valid) {}

    /** The result of a failed-delivery receipt: the dispatch after it, and whether to return the credit now. */
    public record Receipt(OtpDispatch after, boolean refund) {}
}
