package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.person.AuditEntry;
import dev.cadastro.core.person.Justification;
import dev.cadastro.core.person.Subject;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The person-lookup admin subcommands in-process against a real embedded PostgreSQL. */
class PersonAdminCommandTest {
    private static EmbeddedDatabase server;
    private static String url;

    @BeforeAll
    static void startDatabase() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "person-admin-pg-"), false);
        url = server.jdbcUrl();
    }

    @AfterAll
    static void stopDatabase() {
        server.close();
    }

    private record Run(int status, String out, String err) {}

    private static Run admin(String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--database", url));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        all,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void setsTheDefaultJustificationAndBatchLimitRefusingAJustificationThatBreaksTheRule() {
        long id;
        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            id = store.accounts().create("defaults", new Plan("p", 1000)).id().value();
        }
        Run bad = admin("set-justification", "--account", Long.toString(id), "--text", "cliente 123.456.789-09 ok");
        assertEquals(Cli.USAGE, bad.status(), bad.out());
        assertTrue(bad.err().contains("contains a CPF") || bad.err().contains("8 or more digits"), bad.err());
        Run ok = admin("set-justification", "--account", Long.toString(id), "--text", "Politica de KYC da empresa");
        assertEquals(0, ok.status(), ok.err());
        Run limit = admin("set-batch-limit", "--account", Long.toString(id), "--limit", "250");
        assertEquals(0, limit.status(), limit.err());
        Run companies = admin("set-company-batch-limit", "--account", Long.toString(id), "--limit", "2500");
        assertEquals(0, companies.status(), companies.err());
        assertEquals(
                "account " + id + ": company batch limit 2500", companies.out().strip());
        Run tooMany = admin("set-company-batch-limit", "--account", Long.toString(id), "--limit", "10001");
        assertEquals(Cli.USAGE, tooMany.status(), tooMany.out());
        assertTrue(tooMany.err().contains("--limit") && tooMany.err().contains("10000"), tooMany.err());
        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            Account a = store.accounts()
                    .find(new dev.cadastro.core.account.AccountId(id))
                    .orElseThrow();
            assertEquals(Optional.of("Politica de KYC da empresa"), a.defaultJustification());
            assertEquals(250, a.personBatchLimit());
            assertEquals(2500, a.companyBatchLimit(), "the refused 10001 changed nothing");
        }
    }

    @Test
    void exportsAnAccountsAuditTrailForAPeriodWithoutAnyClearCpf(@TempDir Path dir) throws Exception {
        Cpf cpf = Cpf.withCheckDigits("529982247");
        SubjectDigests digests = new SubjectDigests("k1", new byte[32]);
        Instant inPeriod = Instant.parse("2026-05-10T15:00:00Z");
        Instant after = Instant.parse("2026-05-12T15:00:00Z");
        long id;
        try (Store store = Store.open(Database.url(url), Clock.fixed(inPeriod, ZoneOffset.UTC))) {
            Account a = store.accounts().create("audited", new Plan("p", 1000));
            id = a.id().value();
            store.ledger().topUp(a.id(), CreditKind.CREDITS, 100, IdempotencyKey.of("t:" + id), "test");
            CostRules costs = new CostRules(Clock.fixed(inPeriod, ZoneOffset.UTC));
            for (Instant at : List.of(inPeriod, after)) {
                var charge = costs.personLookup(a.id(), "r" + at.getEpochSecond());
                store.personAudit()
                        .chargeAndRecord(
                                charge,
                                new AuditEntry(
                                        a.id(),
                                        "cad_abcdefgh",
                                        Purpose.KYC_CADASTRO,
                                        Justification.choose(
                                                Optional.of("Abertura, de conta"),
                                                Optional.empty(),
                                                Purpose.KYC_CADASTRO),
                                        "CPF",
                                        digests.of(new Subject.ByCpf(cpf)),
                                        List.of("cpf", "nome"),
                                        "req-" + at.getEpochSecond(),
                                        charge.key().value(),
                                        at));
            }
        }
        Path csv = dir.resolve("audit.csv");
        Run run = admin(
                "audit",
                "--account",
                Long.toString(id),
                "--from",
                "2026-05-10",
                "--to",
                "2026-05-11",
                "--format",
                "csv",
                "--out",
                csv.toString());
        assertEquals(0, run.status(), run.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size(), "header and the one row of the period: " + lines);
        String row = lines.get(1);
        assertTrue(row.contains(digests.of(new Subject.ByCpf(cpf)).hex()), row);
        assertTrue(row.contains("KYC_CADASTRO") && row.contains("cpf;nome") && row.contains("req-"), row);
        assertEquals("2026-05-10T12:00:00-03:00", row.split(",")[1], "the time in the one format: " + row);
        assertTrue(row.contains("\"Abertura, de conta\""), "a comma in a field is quoted: " + row);
        assertFalse(String.join("\n", lines).contains(cpf.digits()), "never the clear CPF");

        Run json = admin(
                "audit",
                "--account",
                Long.toString(id),
                "--from",
                "2026-05-10",
                "--to",
                "2026-05-12",
                "--format",
                "jsonl");
        assertEquals(0, json.status(), json.err());
        assertEquals(2, json.out().strip().lines().count(), json.out());
        assertTrue(json.out().contains("\"purpose\":\"KYC_CADASTRO\""), json.out());
    }
}
