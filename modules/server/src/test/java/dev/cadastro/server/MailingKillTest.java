package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.server.cli.CliRuns;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server killed with SIGKILL in the middle of an export (a real {@code ./cadastro serve} process,
 * {@code destroyForcibly}) leaves its job processando with its credits held; another server takes the
 * job over once the dead one's lease has run out and completes it with one charge and a whole file.
 */
class MailingKillTest {
    private static final int ESTABLISHMENTS = 60_000;
    private static final int LEADS = 50_000;

    @TempDir
    Path tmp;

    @Test
    void aJobWhoseServerIsKilledMidExportIsCompletedByAnotherServerWithOneCharge() throws Exception {
        ServerFixture f = ServerFixture.get();
        Path dump = tmp.resolve("dump");
        Path index = tmp.resolve("index");
        DumpGenerator.generate(
                dump,
                GeneratorOptions.builder(ESTABLISHMENTS).seed(5).threads(2).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, ESTABLISHMENTS));

        // A database of its own on the fixture's PostgreSQL: only the servers of this test work on it.
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "kill_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        String url = server.replace("/postgres?", "/" + name + "?");
        String jobId;
        Account account;
        try (Store store = Store.open(Database.url(url), Clock.systemUTC());
                LuceneRegister register = LuceneRegister.open(index)) {
            account = store.accounts().create("kill " + UUID.randomUUID(), new Plan("teste", 1000));
            store.ledger().topUp(account.id(), CreditKind.CREDITS, 100_000, IdempotencyKey.of("t:" + name), "t");
            Principal principal = new Principal(
                    new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                            .issue(account.id(), "kill", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                            .key(),
                    account);
            MailingService creator = new MailingService(
                    register,
                    store.mailingJobs(),
                    new LocalFolderFileStore(tmp.resolve("unused")),
                    ZipLeadFileWriter.standard(),
                    new CostRules(Clock.systemUTC()),
                    Clock.systemUTC(),
                    new SecureRandom(),
                    Duration.ofDays(7),
                    () -> {});
            MailingJob job = creator.create(
                    principal,
                    new MailingRequest(
                            RegisterQuery.builder()
                                    .situacaoCadastral("01", "02", "03", "04", "08")
                                    .build(),
                            LEADS,
                            ExportFormat.XLSX),
                    "r." + name);
            assertEquals(LEADS, job.leadsLimit());
            jobId = job.id();
        }

        Process child = startServe(index, url, tmp.resolve("files-a"));
        try {
            String owner = awaitClaimed(url, jobId, child);
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement ps = c.prepareStatement(
                            "SELECT state, lease_owner, attempts FROM mailing_jobs WHERE public_id = ?")) {
                ps.setString(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("processando", rs.getString(1), "killed mid-export, not after it");
                    assertEquals(owner, rs.getString(2));
                    assertEquals(1, rs.getInt(3));
                }
            }
        } finally {
            child.destroyForcibly();
        }

        // Another server, whose clock is past the dead server's 30-second lease (as if it waited it out).
        Clock later = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(31));
        EngineConfig config = EngineConfig.builder(index, Database.url(url))
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.empty())
                .clock(later)
                .files(tmp.resolve("files-b"))
                .mailing(MailingOptions.defaults())
                .build();
        try (CadastroServer survivor = CadastroServer.start(config)) {
            MailingJob done = awaitDone(survivor, jobId);
            assertEquals(MailingJob.State.CONCLUIDO, done.state(), done.toString());
            MailingJob.Delivered d = (MailingJob.Delivered) done.outcome().orElseThrow();
            assertEquals(LEADS, d.delivered());
            assertEquals(LEADS, d.charged());
            assertEquals(
                    100_000 - LEADS,
                    survivor.store()
                            .ledger()
                            .balance(account.id(), CreditKind.CREDITS)
                            .posted());
            assertEquals(
                    0,
                    survivor.store()
                            .ledger()
                            .balance(account.id(), CreditKind.CREDITS)
                            .held());
            Path file = tmp.resolve("files-b").resolve(d.fileKey());
            try (ZipFile zip = new ZipFile(file.toFile())) {
                assertEquals(1, zip.size());
                assertNotNull(zip.getEntry("mailing-" + jobId + ".xlsx"));
            }
            try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement ps =
                            c.prepareStatement("SELECT attempts FROM mailing_jobs WHERE public_id = ?")) {
                ps.setString(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(2, rs.getInt(1), "taken over once");
                }
            }
        }
    }

    private Process startServe(Path index, String url, Path files) throws IOException {
        // Its own SMS folder: the default, .cadastro under the working directory, would be left behind
        // (a key file half-written by the killed server) for the tests that run after this one.
        return CliRuns.startServe(
                "512m",
                index,
                url,
                tmp.resolve("serve.log"),
                List.of(
                        "--files",
                        files.toString(),
                        "--sms-dir",
                        tmp.resolve("sms").toString()));
    }

    /** Waits until the child server holds the job's lease; returns the owner it recorded. */
    private String awaitClaimed(String url, String jobId, Process child) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps =
                        c.prepareStatement("SELECT lease_owner, state FROM mailing_jobs WHERE public_id = ?")) {
            ps.setString(1, jobId);
            while (System.nanoTime() < deadline) {
                assertTrue(child.isAlive(), () -> "the child server died: " + log());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("processando", rs.getString(2), "the child finished before it could be killed");
                    if (rs.getString(1) != null) {
                        return rs.getString(1);
                    }
                }
                Thread.sleep(5);
            }
        }
        throw new AssertionError("the child server never claimed the job: " + log());
    }

    private String log() {
        return CliRuns.logOf(tmp.resolve("serve.log"));
    }

    private static MailingJob awaitDone(CadastroServer server, String jobId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            MailingJob job = server.store().mailingJobs().find(jobId).orElseThrow();
            if (job.state() != MailingJob.State.PROCESSANDO) {
                return job;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the surviving server did not finish the job");
    }
}
