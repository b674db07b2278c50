package dev.cadastro.server;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.sms.OtpDispatch;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.sms.OtpStore;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.GuardedProviders;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.providers.SimulatedSms;
import dev.cadastro.providers.SmsInbox;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The SMS provider and the code keys a server uses. By default the {@link SimulatedSms} behind its
 * own guard, delivering to {@code <home>/sms-inbox.tsv} (read by {@code ./cadastro admin sms-inbox}),
 * reporting failed deliveries after {@code receiptDelay}, misbehaving as {@code faults} says; and the
 * keys of {@link OtpSecrets} ({@value OtpSecrets#ENV}, else {@code <home>/secrets/otp-keys.properties},
 * created on first start).
 *
 * @param gateway the host's own SMS provider, used as given (the host guards it), or null for the
 *     simulated one
 * @param keys the host's keys, or null to resolve them from the environment or {@code keysFile}
 */
public record SmsOptions(
        SmsGateway gateway,
        FaultPlan faults,
        Path inbox,
        Duration receiptDelay,
        Path keysFile,
        Keyring keys,
        ProviderPolicy policy) {
    /** The name of the SMS provider in guards, logs and errors. */
    public static final String SMS = "sms";

    public SmsOptions {
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(inbox, "inbox");
        Objects.requireNonNull(receiptDelay, "receiptDelay");
        Objects.requireNonNull(keysFile, "keysFile");
        Objects.requireNonNull(policy, "policy");
    }

    /** The simulated provider and generated keys under {@code home}. */
    public static SmsOptions under(Path home) {
        Path h = home.toAbsolutePath();
        return new SmsOptions(
                null,
                FaultPlan.none(),
                h.resolve("sms-inbox.tsv"),
                Duration.ofSeconds(2),
                h.resolve("secrets").resolve("otp-keys.properties"),
                null,
                ProviderPolicy.defaults());
    }

    public SmsOptions withFaults(FaultPlan faults) {
        return new SmsOptions(gateway, faults, inbox, receiptDelay, keysFile, keys, policy);
    }

    public SmsOptions withPolicy(ProviderPolicy policy) {
        return new SmsOptions(gateway, faults, inbox, receiptDelay, keysFile, keys, policy);
    }

    public SmsOptions withKeys(Keyring keys) {
        return new SmsOptions(gateway, faults, inbox, receiptDelay, keysFile, keys, policy);
    }

    public SmsOptions withReceiptDelay(Duration receiptDelay) {
        return new SmsOptions(gateway, faults, inbox, receiptDelay, keysFile, keys, policy);
    }

    /** The host's own provider instead of the simulated one. */
    public SmsOptions withGateway(SmsGateway gateway) {
        return new SmsOptions(
                Objects.requireNonNull(gateway, "gateway"), faults, inbox, receiptDelay, keysFile, keys, policy);
    }

    /** Builds the provider (guarded) and resolves the keys. */
    public Sms build(Clock clock) {
        Keyring keyring = keys != null ? keys : OtpSecrets.resolve(System.getenv(), keysFile, true, new SecureRandom());
        if (gateway != null) {
            return new Sms(gateway, keyring, Optional.empty(), Optional.empty(), true);
        }
        SimulatedSms simulated = new SimulatedSms(SmsInbox.at(inbox), faults, clock, receiptDelay);
        ProviderGuard guard = ProviderGuard.of(SMS, policy);
        return new Sms(
                GuardedProviders.guard(simulated, guard), keyring, Optional.of(simulated), Optional.of(guard), true);
    }

    /**
     * The SMS side of one server: the guarded provider, the keys, the simulated provider when it is
     * the one in use (its inbox and fault plan, for operators and tests) and the guard built for it
     * (closed with it; a host's own provider is the host's to close).
     *
     * @param checks whether checks reach the store; false for {@link #none()}, whose keys are not the
     *     server's, so a check through it must not count an attempt on a real dispatch
     */
    public record Sms(
            SmsGateway gateway,
            Keyring keys,
            Optional<SimulatedSms> simulated,
            Optional<ProviderGuard> guard,
            boolean checks)
            implements AutoCloseable {
        public Sms {
            Objects.requireNonNull(gateway, "gateway");
            Objects.requireNonNull(keys, "keys");
            Objects.requireNonNull(simulated, "simulated");
            Objects.requireNonNull(guard, "guard");
        }

        /**
         * No provider: every send answers {@code SMS_INDISPONIVEL}. For routers built without a server's
         * SMS side (a second listener in tests), whose random keys no other router shares.
         */
        public static Sms none() {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            SmsGateway down = message -> {
                throw new ProviderUnavailableException(SMS, ProviderUnavailableException.Failure.ERROR, null, null);
            };
            return new Sms(
                    down,
                    new Keyring(List.of(new Keyring.Key("none", secret)), "none"),
                    Optional.empty(),
                    Optional.empty(),
                    false);
        }

        /**
         * The use case over this provider and store; the simulated provider's delivery receipts go to it
         * (any instance will do: a receipt only settles the dispatch in the store).
         */
        public OtpService service(OtpStore store, Clock clock) {
            OtpStore used = checks ? store : new WithoutChecks(store);
            OtpService service = new OtpService(used, gateway, keys, new CostRules(clock), clock, new SecureRandom());
            simulated.ifPresent(s -> s.onReceipt(service::receipt));
            return service;
        }

        @Override
        public void close() {
            simulated.ifPresent(SimulatedSms::close);
            guard.ifPresent(ProviderGuard::close);
        }
    }

    /** A store whose checks find nothing (404, no attempt counted); everything else goes to the real one. */
    private record WithoutChecks(OtpStore store) implements OtpStore {
        @Override
        public Begun begin(OtpDispatch dispatch, String phoneKey, byte[] mac, HoldRequest hold, String clientRef) {
            return store.begin(dispatch, phoneKey, mac, hold, clientRef);
        }

        @Override
        public OtpDispatch accepted(AccountId account, String id, String providerMessageId, Instant now) {
            return store.accepted(account, id, providerMessageId, now);
        }

        @Override
        public OtpDispatch unavailable(AccountId account, String id, Instant now) {
            return store.unavailable(account, id, now);
        }

        @Override
        public boolean deliveryFailed(String id, Instant now) {
            return store.deliveryFailed(id, now);
        }

        @Override
        public int abandonSending(Instant createdBefore, Instant now) {
            return store.abandonSending(createdBefore, now);
        }

        @Override
        public Optional<OtpDispatch> find(AccountId account, String id) {
            return store.find(account, id);
        }

        @Override
        public Optional<Checked> check(AccountId account, String id, Instant now, Map<String, byte[]> typedMacs) {
            return Optional.empty();
        }
    }
}
