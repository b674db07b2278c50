package dev.cadastro.core.sms;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.provider.ProviderUnavailableException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Use case: SMS one-time codes ({@code POST /sms/otp}, {@code POST /sms/otp/verificar};
 * rules in docs/rules.md).
 *
 * <p>Sending: the scope; a uniform code from the {@link SecureRandom}; its HMAC under the keyring's
 * current key, bound to a new dispatch id; then {@link OtpStore#begin} (the phone's limits, the hold of
 * 1 SMS credit and the dispatch in one transaction: {@code LIMITE_OTP} or {@code SEM_CREDITOS} write
 * nothing); then the provider, outside any transaction; then the post of the hold when it accepted, or
 * its release when it was unavailable ({@code SMS_INDISPONIVEL}: nothing charged, the throttle does not
 * count it). The code exists only in memory between its generation and the provider call.
 *
 * <p>Checking: the typed code's HMAC under each key goes to the store, where one statement compares
 * the one under the dispatch's key with the stored HMAC, without a timing that depends on it, counts
 * the attempt, and on a match marks the code verified, once, only if the state and the expiry still
 * allow it ({@link OtpStore#check}). No cost.
 *
 * <p>Logs name the dispatch and the masked phone, never the code.
 */
public final class OtpService {
    private static final System.Logger LOG = System.getLogger(OtpService.class.getName());

    /**
     * How long a dispatch may stay {@link Delivery#ENVIANDO} before its hold is released: far above any
     * provider time limit, so only a dispatch whose server stopped mid-call reaches it.
     */
    public static final Duration SENDING_LEASE = Duration.ofMinutes(2);

    public static final String ENVIO_ID = "envio_id";

    /** The dispatch ids {@link #send} makes: {@code sms_} and 32 lower-case hex digits. */
    private static final java.util.regex.Pattern ID_FORMAT = java.util.regex.Pattern.compile("sms_[0-9a-f]{32}");

    public static final String CODIGO = "codigo";

    private final OtpStore store;
    private final SmsGateway gateway;
    private final Keyring keys;
    private final CostRules costs;
    private final Clock clock;
    private final SecureRandom random;

    /**
     * @param random for codes and dispatch ids; a {@link SecureRandom} because both are secrets
     */
    public OtpService(
            OtpStore store, SmsGateway gateway, Keyring keys, CostRules costs, Clock clock, SecureRandom random) {
        this.store = Objects.requireNonNull(store, "store");
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * Sends a new code to the request's phone and charges 1 SMS credit once the provider accepts it.
     *
     * @throws OtpLimitException when the phone's 30-second or hourly limit refuses it (nothing charged)
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the SMS balance is empty
     * @throws SmsUnavailableException when the provider did not accept it (nothing charged, not counted)
     */
    public OtpSent send(Principal principal, OtpRequest request) {
        return send(principal, request, newId());
    }

    /**
     * {@link #send(Principal, OtpRequest)} for a request with a reference of its own (the HTTP adapter's
     * Idempotency-Key row or request id): a retry under the same reference answers the dispatch it
     * already made, without a second SMS or charge; while that dispatch is still being sent by another
     * server, the retry is {@code SMS_INDISPONIVEL} (nothing charged) and may be repeated later.
     */
    public OtpSent send(Principal principal, OtpRequest request, String reference) {
        principal.require(Scope.SMS_OTP);
        Objects.requireNonNull(reference, "reference");
        Instant now = clock.instant();
        String id = newId();
        String masked = OtpRequest.mask(request.phone());
        OtpCode code = OtpCode.generate(random, request.digits());
        String keyId = keys.current();
        byte[] mac = keys.mac(keyId, id, code);
        OtpDispatch dispatch = OtpDispatch.sending(
                id, principal.accountId(), masked, request.digits(), keyId, now, request.validity());
        HoldRequest hold = costs.smsCode(principal.accountId(), id);
        OtpStore.Begun begun = store.begin(dispatch, phoneKey(request), mac, hold, reference);
        switch (begun) {
            case OtpStore.Begun.Throttled t ->
                throw new OtpLimitException(masked, OtpThrottle.retryAfterSeconds(t.retryIn()));
            case OtpStore.Begun.Existing e -> {
                OtpDispatch earlier = e.dispatch();
                if (earlier.delivery() == Delivery.ENVIANDO) {
                    throw new SmsUnavailableException(new ProviderUnavailableException(
                            "sms", ProviderUnavailableException.Failure.ERROR, Duration.ofSeconds(1), null));
                }
                return new OtpSent(
                        earlier.id(),
                        earlier.expiresAt(),
                        costs.smsCode(principal.accountId(), earlier.id()).amount());
            }
            case OtpStore.Begun.Started s -> {
                /* send below */
            }
        }
        String providerId;
        try {
            providerId = gateway.send(new SmsMessage(id, request.phone(), text(code, request.validity())));
        } catch (ProviderUnavailableException e) {
            store.unavailable(principal.accountId(), id, clock.instant());
            LOG.log(
                    System.Logger.Level.WARNING,
                    "sms dispatch {0} to {1}: provider unavailable ({2}); hold released",
                    id,
                    masked,
                    e.failure());
            throw new SmsUnavailableException(e);
        } catch (RuntimeException e) {
            // A gateway that breaks its contract: the message was not accepted, so nothing is charged.
            store.unavailable(principal.accountId(), id, clock.instant());
            throw e;
        }
        OtpDispatch accepted = store.accepted(principal.accountId(), id, providerId, clock.instant());
        LOG.log(
                System.Logger.Level.DEBUG,
                "sms dispatch {0} to {1} accepted, expires {2}",
                id,
                masked,
                accepted.expiresAt());
        // Uncertain: the answer came after the sending lease released the hold; the message is not charged.
        long charged = accepted.delivery() == Delivery.INCERTO
                ? 0
                : costs.smsCode(principal.accountId(), id).amount();
        return new OtpSent(id, accepted.expiresAt(), charged);
    }

    /**
     * Checks a typed code against a dispatch of the principal's account.
     *
     * @param envioId the dispatch id
     * @param codigo the code as typed: 1 to 8 digits
     * @throws InvalidParameterException when a field is missing or the code is not digits
     * @throws NotFoundException when the account has no such dispatch
     */
    public OtpCheck verify(Principal principal, String envioId, String codigo) {
        principal.require(Scope.SMS_OTP);
        if (envioId == null || envioId.isBlank()) {
            throw InvalidParameterException.of(ENVIO_ID, "required", Message.FIELD_REQUIRED.with(ENVIO_ID));
        }
        if (codigo == null || codigo.isEmpty()) {
            throw InvalidParameterException.of(CODIGO, "required", Message.FIELD_REQUIRED.with(CODIGO));
        }
        // The typed value is not echoed: it may be a code.
        OtpCode typed = OtpCode.typed(codigo)
                .orElseThrow(() -> InvalidParameterException.of(
                        CODIGO, "format", Message.OTP_CODE_FORMAT.with(CODIGO, OtpCode.MAX_DIGITS)));
        if (!ID_FORMAT.matcher(envioId).matches()) {
            // Not an id this service makes: unknown without asking the store (which refuses some bytes).
            throw notFound(envioId);
        }
        Instant now = clock.instant();
        OtpStore.Checked checked = store.check(principal.accountId(), envioId, now, keys.macs(envioId, typed))
                .orElseThrow(() -> notFound(envioId));
        OtpDispatch after = checked.dispatch();
        return new OtpCheck(checked.valid(), after.status(now), after.remainingAttempts(now));
    }

    /** A delivery receipt from the provider: a failed delivery returns the dispatch's credit, once. */
    public void receipt(DeliveryReceipt receipt) {
        if (receipt.delivered()) {
            return;
        }
        boolean refunded = store.deliveryFailed(receipt.reference(), clock.instant());
        LOG.log(
                System.Logger.Level.INFO,
                "sms dispatch {0}: delivery failed{1}",
                receipt.reference(),
                refunded ? "; SMS credit returned" : " (already settled)");
    }

    /**
     * Releases the holds of dispatches stuck in sending longer than {@link #SENDING_LEASE} (their server
     * stopped mid-call). Housekeeping calls it.
     *
     * @return how many were released
     */
    public int releaseStuck() {
        Instant now = clock.instant();
        int released = store.abandonSending(now.minus(SENDING_LEASE), now);
        if (released > 0) {
            LOG.log(System.Logger.Level.WARNING, "released the SMS holds of {0} dispatches stuck in sending", released);
        }
        return released;
    }

    /** The throttle's unit with the account: a digest of the number, so the store keeps no phone in clear. */
    static String phoneKey(OtpRequest request) {
        return Texts.sha256Hex("sms-phone:" + request.phone().national()).substring(0, 32);
    }

    private String newId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return "sms_" + HexFormat.of().formatHex(bytes);
    }

    private static String text(OtpCode code, Duration validity) {
        return "Cadastro: seu codigo de verificacao e " + code.reveal() + ". Valido por " + validity.toMinutes()
                + " min. Nao o compartilhe.";
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException(Message.SMS_DISPATCH_NOT_FOUND.with(Texts.quote(id)));
    }
}
