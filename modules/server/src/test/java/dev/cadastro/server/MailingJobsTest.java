package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The mailing job's life below HTTP, claim by claim, on a database of its own (so the fixture server's
 * workers do not take these jobs) and the fixture's real index: failure releases the hold, the lease
 * is exclusive and taken over after it runs out, completion charges once, files expire.
 */
class MailingJobsTest {
    private static ServerFixture f;
    private static Store store;
    private static Path dir;

    @BeforeAll
    static void open() throws IOException, SQLException {
        f = ServerFixture.get();
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "mailing_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        store = Store.open(Database.url(server.replace("/postgres?", "/" + name + "?")), f.clock);
        dir = Files.createTempDirectory(Path.of("target"), "mailing-jobs-");
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static MailingService service(LocalFolderFileStore files, ManualClock clock) {
        return new MailingService(
                f.server.register(),
                store.mailingJobs(),
                files,
                ZipLeadFileWriter.standard(),
                new CostRules(clock),
                clock,
                new SecureRandom(),
                Duration.ofDays(7),
                () -> {});
    }

    private static Principal principal(Account account) {
        ApiKey key = new ApiKeyIssuer(store.accounts(), store.apiKeys(), f.clock, new SecureRandom())
                .issue(account.id(), "test", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                .key();
        return new Principal(key, account);
    }

    private static Account funded(long credits) {
        Account a = store.accounts().create("mailing " + UUID.randomUUID(), new Plan("teste", 1000));
        store.ledger().topUp(a.id(), CreditKind.CREDITS, credits, IdempotencyKey.of("t:" + UUID.randomUUID()), "t");
        return a;
    }

    private static MailingRequest rj(int quantidade) {
        return new MailingRequest(RegisterQuery.parse(Map.of("ufs", List.of("RJ"))), quantidade, ExportFormat.CSV);
    }

    private static Claimed<MailingJob> claim(String owner, ManualClock clock) {
        return store.mailingJobs()
                .claim(owner, clock.instant(), Duration.ofSeconds(30))
                .orElseThrow();
    }

    @Test
    void aJobThatCannotWriteItsFileFailsAndReleasesItsWholeHold() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        Path root = Files.createDirectories(dir.resolve("broken-" + UUID.randomUUID()));
        Files.writeString(root.resolve("mailing"), "a file where the folder of exports should be");
        MailingService mailing = service(new LocalFolderFileStore(root), clock);
        Account account = funded(100);
        MailingJob job = mailing.create(principal(account), rj(20), "r." + UUID.randomUUID());
        Balance held = store.ledger().balance(account.id(), CreditKind.CREDITS);
        assertEquals(20, held.held());
        assertEquals(80, held.available());

        mailing.process(claim("a", clock));

        MailingJob failed = mailing.status(principal(account), job.id());
        assertEquals(MailingJob.State.FALHOU, failed.state());
        assertEquals(
                ErrorCode.ERRO_INTERNO,
                assertInstanceOf(MailingJob.Failed.class, failed.outcome().orElseThrow())
                        .code());
        Balance after = store.ledger().balance(account.id(), CreditKind.CREDITS);
        assertEquals(100, after.posted(), "nothing charged");
        assertEquals(0, after.held(), "the hold released");
        assertThrows(NotFoundException.class, () -> mailing.download(principal(account), job.id()));
    }

    @Test
    void aRetriedCreationWithTheSameReferenceAnswersTheFirstJobAndHoldsOnce() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        MailingService mailing = service(new LocalFolderFileStore(dir.resolve("retry")), clock);
        Account account = funded(100);
        // The first attempt committed, then its answer was lost (its server died before storing it).
        MailingJob first = mailing.create(principal(account), rj(30), "idem.424242");
        MailingJob again = mailing.create(principal(account), rj(30), "idem.424242");
        assertEquals(first.id(), again.id());
        assertEquals(
                1,
                store.mailingJobs()
                        .list(java.util.Optional.of(account.id()), 10)
                        .size());
        assertEquals(
                30, store.ledger().balance(account.id(), CreditKind.CREDITS).held());
        // Leave no job for the other tests' claims: fail it, which releases the one hold.
        assertTrue(mailing.failByOperator(first.id(), "test over"));
        assertEquals(
                100, store.ledger().balance(account.id(), CreditKind.CREDITS).available());
    }

    @Test
    void aLeaseIsExclusiveUntilItRunsOutThenTheJobCompletesOnceWithOneCharge() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        MailingService mailing = service(new LocalFolderFileStore(dir.resolve("ok")), clock);
        Account account = funded(100);
        MailingJob job = mailing.create(principal(account), rj(10), "r." + UUID.randomUUID());
        Claimed<MailingJob> first = claim("server-a", clock);
        assertEquals(job.id(), first.work().id());
        assertEquals(1, first.attempt());
        assertTrue(
                store.mailingJobs()
                        .claim("server-b", clock.instant(), Duration.ofSeconds(30))
                        .isEmpty(),
                "a held lease is not claimed");
        // server-a dies; 31 s later its lease has run out and server-b takes the job over.
        clock.advance(Duration.ofSeconds(31));
        Claimed<MailingJob> second = claim("server-b", clock);
        assertEquals(2, second.attempt());
        assertFalse(store.mailingJobs().renew(first.id(), "server-a", clock.instant(), Duration.ofSeconds(30)));
        mailing.process(second);
        // The late first attempt finishing now changes nothing.
        mailing.process(first);
        MailingJob done = mailing.status(principal(account), job.id());
        assertEquals(MailingJob.State.CONCLUIDO, done.state());
        assertEquals(
                90, store.ledger().balance(account.id(), CreditKind.CREDITS).posted(), "charged once");
        assertEquals(0, store.ledger().balance(account.id(), CreditKind.CREDITS).held());
    }

    @Test
    void aJobInterruptedTooOftenFailsAndChargesNothing() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        MailingService mailing = service(new LocalFolderFileStore(dir.resolve("poison")), clock);
        Account account = funded(100);
        MailingJob job = mailing.create(principal(account), rj(5), "r." + UUID.randomUUID());
        Claimed<MailingJob> last = null;
        for (int i = 0; i <= MailingService.MAX_ATTEMPTS; i++) {
            last = claim("s" + i, clock);
            clock.advance(Duration.ofSeconds(31));
        }
        assertEquals(MailingService.MAX_ATTEMPTS + 1, last.attempt());
        mailing.process(last);
        assertEquals(
                MailingJob.State.FALHOU,
                mailing.status(principal(account), job.id()).state());
        assertEquals(
                100, store.ledger().balance(account.id(), CreditKind.CREDITS).available());
    }

    @Test
    void aFileIsServedUntilItExpiresThenRemoved() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        LocalFolderFileStore files = new LocalFolderFileStore(dir.resolve("expiry"));
        MailingService mailing = service(files, clock);
        Account account = funded(100);
        MailingJob job = mailing.create(principal(account), rj(3), "r." + UUID.randomUUID());
        mailing.process(claim("a", clock));
        try (MailingService.Download d = mailing.download(principal(account), job.id())) {
            assertTrue(d.file().size() > 0);
        }
        clock.advance(Duration.ofDays(7).minusSeconds(1));
        mailing.download(principal(account), job.id()).close();
        clock.advance(Duration.ofSeconds(1));
        NotFoundException expired =
                assertThrows(NotFoundException.class, () -> mailing.download(principal(account), job.id()));
        assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
        assertEquals(1, mailing.removeExpiredFiles());
        assertTrue(files.open("mailing/" + job.id() + ".zip").isEmpty(), "the file is gone");
        assertEquals(0, mailing.removeExpiredFiles(), "removed once");
    }

    @Test
    void anOperatorFailsAStuckJobAndItsHoldIsReleased() throws IOException {
        ManualClock clock = new ManualClock(ServerFixture.START);
        MailingService mailing = service(new LocalFolderFileStore(dir.resolve("stuck")), clock);
        Account account = funded(50);
        MailingJob job = mailing.create(principal(account), rj(7), "r." + UUID.randomUUID());
        claim("dead-server", clock);
        assertTrue(mailing.failByOperator(job.id(), "stuck"));
        assertFalse(mailing.failByOperator(job.id(), "again"), "an ended job stays as it ended");
        assertEquals(
                50, store.ledger().balance(account.id(), CreditKind.CREDITS).available());
        assertTrue(store.mailingJobs()
                .claim("x", clock.instant().plusSeconds(60), Duration.ofSeconds(30))
                .isEmpty());
    }
}
