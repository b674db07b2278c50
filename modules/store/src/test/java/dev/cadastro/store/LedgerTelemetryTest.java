package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.person.AuditEntry;
import dev.cadastro.core.person.AuditTrail;
import dev.cadastro.core.person.Justification;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.telemetry.Telemetry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every path that writes a debit entry tells the telemetry, whichever class's SQL wrote the entry: the
 * ledger's own charge (alone and grouped), a charge inside a caller's transaction, a hold's post, a
 * person lookup's one-statement charge with its audit row (alone and grouped) and an SMS acceptance.
 */
class LedgerTelemetryTest {
    /** Counts what it is told, keyed by the labels the metrics use. */
    static final class Counting implements Telemetry {
        final Map<String, Long> entries = new TreeMap<>();
        final Map<String, Long> credits = new TreeMap<>();

        @Override
        public synchronized void ledgerEntryWritten(String type) {
            entries.merge(type, 1L, Long::sum);
        }

        @Override
        public synchronized void creditsCharged(String operation, String kind, long amount) {
            credits.merge(operation + "/" + kind, amount, Long::sum);
        }

        synchronized void reset() {
            entries.clear();
            credits.clear();
        }

        synchronized Map<String, Long> entries() {
            return new TreeMap<>(entries);
        }

        synchronized Map<String, Long> credits() {
            return new TreeMap<>(credits);
        }
    }

    private static final Counting ALONE = new Counting();
    private static final Counting GROUPED = new Counting();
    private static Store alone;
    private static Store grouped;

    private final Clock clock = Clock.systemUTC();
    private final CostRules costs = new CostRules(clock);

    @BeforeAll
    static void open() {
        String url = TestDatabase.freshDatabase();
        alone = Store.open(
                Database.builder().url(url).poolSize(4).groupCommit(false).build(), Clock.systemUTC(), ALONE);
        grouped = Store.open(
                Database.builder().url(url).poolSize(4).groupCommitWorkers(1).build(), Clock.systemUTC(), GROUPED);
    }

    @AfterAll
    static void close() {
        alone.close();
        grouped.close();
    }

    @BeforeEach
    void resetCounts() {
        ALONE.reset();
        GROUPED.reset();
    }

    private static Account funded(Store store, long credits, long sms) {
        Account a = store.accounts().create("telemetria " + UUID.randomUUID(), new Plan("p", 1000));
        if (credits > 0) {
            store.ledger().topUp(a.id(), CreditKind.CREDITS, credits, IdempotencyKey.of("t:" + UUID.randomUUID()), "c");
        }
        if (sms > 0) {
            store.ledger().topUp(a.id(), CreditKind.SMS_CREDITS, sms, IdempotencyKey.of("t:" + UUID.randomUUID()), "c");
        }
        return a;
    }

    private static AuditEntry entry(Account a, ChargeRequest charge) {
        byte[] digest = new byte[32];
        Arrays.fill(digest, (byte) 7);
        return new AuditEntry(
                a.id(),
                "cad_abcdefgh",
                Purpose.KYC_CADASTRO,
                Justification.choose(Optional.of("Abertura de conta corrente"), Optional.empty(), Purpose.KYC_CADASTRO),
                "CPF",
                new SubjectDigests.Digest("k1", digest),
                List.of("cpf", "nome"),
                "req-" + UUID.randomUUID(),
                charge.key().value(),
                Instant.now());
    }

    private void resetAfterTopUps() {
        ALONE.reset();
        GROUPED.reset();
    }

    private static ChargeRequest lookup(Account a) {
        return new ChargeRequest(
                a.id(), CreditKind.CREDITS, 1, IdempotencyKey.of("lookup:" + a.id() + ":" + UUID.randomUUID()), "c");
    }

    @Test
    void chargeCommittedAloneIsCounted() {
        Account a = funded(alone, 10, 0);
        resetAfterTopUps();
        alone.ledger().charge(lookup(a));
        assertEquals(Map.of("CHARGE", 1L), ALONE.entries());
        assertEquals(Map.of("lookup/CREDITS", 1L), ALONE.credits());
    }

    @Test
    void groupedChargeIsCounted() {
        Account a = funded(grouped, 10, 0);
        resetAfterTopUps();
        grouped.ledger().charge(lookup(a));
        assertEquals(Map.of("CHARGE", 1L), GROUPED.entries());
        assertEquals(Map.of("lookup/CREDITS", 1L), GROUPED.credits());
    }

    @Test
    void chargeInsideTheCallersTransactionIsCounted() {
        Account a = funded(alone, 20, 0);
        ChargeRequest charge = costs.personLookup(a.id(), "r-" + UUID.randomUUID());
        resetAfterTopUps();
        alone.personAudit().chargeAndRecordAll(List.of(new AuditTrail.Paid(charge, entry(a, charge))));
        assertEquals(Map.of("CHARGE", 1L), ALONE.entries());
        assertEquals(Map.of("person/CREDITS", charge.amount()), ALONE.credits());
    }

    @Test
    void holdPostIsCounted() {
        Account a = funded(alone, 20, 0);
        IdempotencyKey key = IdempotencyKey.of("mailing:" + a.id() + ":" + UUID.randomUUID());
        alone.ledger().hold(new HoldRequest(a.id(), CreditKind.CREDITS, 5, key, "exportacao"));
        resetAfterTopUps();
        alone.ledger().post(a.id(), key, 3);
        assertEquals(Map.of("HOLD_POST", 1L), ALONE.entries());
        assertEquals(Map.of("mailing/CREDITS", 3L), ALONE.credits());
    }

    @Test
    void personLookupChargedInOneStatementIsCounted() {
        Account a = funded(alone, 20, 0);
        ChargeRequest charge = costs.personLookup(a.id(), "r-" + UUID.randomUUID());
        resetAfterTopUps();
        alone.personAudit().chargeAndRecord(charge, entry(a, charge));
        assertEquals(Map.of("CHARGE", 1L), ALONE.entries());
        assertEquals(Map.of("person/CREDITS", charge.amount()), ALONE.credits());

        alone.personAudit().chargeAndRecord(charge, entry(a, charge));
        assertEquals(Map.of("CHARGE", 1L), ALONE.entries(), "a replay writes no entry");
    }

    @Test
    void personLookupChargedInAGroupedStatementIsCounted() {
        Account a = funded(grouped, 20, 0);
        ChargeRequest charge = costs.personLookup(a.id(), "r-" + UUID.randomUUID());
        resetAfterTopUps();
        grouped.personAudit().chargeAndRecord(charge, entry(a, charge));
        assertEquals(Map.of("CHARGE", 1L), GROUPED.entries());
        assertEquals(Map.of("person/CREDITS", charge.amount()), GROUPED.credits());
    }

    @Test
    void acceptedSmsIsCountedAsAHoldPost() {
        Account a = funded(alone, 0, 3);
        ApiKey key = new ApiKeyIssuer(alone.accounts(), alone.apiKeys(), clock, new SecureRandom())
                .issue(a.id(), "otp", EnumSet.of(Scope.SMS_OTP))
                .key();
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) 3);
        OtpService otp = new OtpService(
                alone.otpStore(),
                new OtpStoreTest.Provider(),
                new Keyring(List.of(new Keyring.Key("k1", secret)), "k1"),
                costs,
                clock,
                new SecureRandom());
        resetAfterTopUps();
        otp.send(new Principal(key, a), OtpRequest.parse("11987654321", 300L, null));
        assertEquals(Map.of("HOLD_POST", 1L), ALONE.entries());
        assertEquals(Map.of("sms/SMS_CREDITS", 1L), ALONE.credits());
    }
}
