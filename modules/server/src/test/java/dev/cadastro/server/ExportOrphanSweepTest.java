package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep of orphaned export files, on a local folder and on an S3 bucket: a job whose completion
 * failed for real after its file was uploaded (a trigger of the test's own database refuses it) leaves
 * a file no job names; the sweep deletes it once it is older than {@link MailingService#ORPHAN_AGE},
 * never a file a job names or one of a job still processing, and only one server sweeps at a time.
 */
class ExportOrphanSweepTest {
    @TempDir
    Path dir;

    @Test
    void theSweepDeletesAnOrphanedExportFromALocalFolder() throws Exception {
        sweeps(new LocalFolderFileStore(dir.resolve("files")));
    }

    @Test
    void theSweepDeletesAnOrphanedExportFromABucket() throws Exception {
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir.resolve("s3"))) {
            s3.createBucket("orphans");
            try (S3FileStore files = S3FileStore.open(s3.connection(), S3Location.parse("--files", "s3://orphans/p"))) {
                sweeps(files);
            }
        }
    }

    private static List<String> keys(FileStore files) throws IOException {
        List<String> out = new ArrayList<>();
        for (FileStore.Entry e : files.list(MailingService.FILES)) {
            out.add(e.key());
        }
        return out;
    }

    private void sweeps(FileStore files) throws Exception {
        ServerFixture f = ServerFixture.get();
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "orphans_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        String url = server.replace("/postgres?", "/" + name + "?");
        ManualClock clock = new ManualClock(Instant.now());
        try (Store store = Store.open(Database.url(url), clock)) {
            try (Connection c = DriverManager.getConnection(url);
                    Statement s = c.createStatement()) {
                // One completion fails after its file was uploaded, as a database that goes away would.
                // A sequence counts the completions: its value survives the rollback the exception causes.
                s.execute("CREATE SEQUENCE completions");
                s.execute("CREATE FUNCTION fail_completion() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF NEW.state = 'concluido' AND OLD.state = 'processando'"
                        + " AND nextval('completions') = 1 THEN RAISE EXCEPTION 'completion lost (test)';"
                        + " END IF; RETURN NEW; END $$");
                s.execute("CREATE TRIGGER fail_completion BEFORE UPDATE ON mailing_jobs"
                        + " FOR EACH ROW EXECUTE FUNCTION fail_completion()");
            }
            MailingService mailing = new MailingService(
                    f.server.register(),
                    store.mailingJobs(),
                    files,
                    ZipLeadFileWriter.standard(),
                    new CostRules(clock),
                    clock,
                    new SecureRandom(),
                    Duration.ofDays(7),
                    () -> {});
            Account account = store.accounts().create("orphans " + UUID.randomUUID(), new Plan("teste", 1000));
            store.ledger()
                    .topUp(account.id(), CreditKind.CREDITS, 100, IdempotencyKey.of("t:" + UUID.randomUUID()), "t");
            Principal principal = new Principal(
                    new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                            .issue(account.id(), "test", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                            .key(),
                    account);
            MailingRequest request =
                    new MailingRequest(SearchParameters.parse(Map.of("ufs", List.of("RJ"))), 3, ExportFormat.CSV);
            MailingJob lost = mailing.create(principal, request, "r." + UUID.randomUUID());
            Duration lease = Duration.ofSeconds(30);
            Claimed<MailingJob> first =
                    store.mailingJobs().claim("a", clock.instant(), lease).orElseThrow();
            assertThrows(RuntimeException.class, () -> mailing.process(first), "the completion failed");
            String orphan = "mailing/" + lost.id() + "-" + first.attempt() + ".zip";
            assertEquals(List.of(orphan), keys(files), "the uploaded file stays: the completion may have committed");

            // The job runs again once its lease ran out, and completes with a file of its own.
            clock.advance(lease.plusSeconds(1));
            mailing.process(
                    store.mailingJobs().claim("b", clock.instant(), lease).orElseThrow());
            MailingJob done = store.mailingJobs().find(lost.id()).orElseThrow();
            String kept = ((MailingJob.Delivered) done.outcome().orElseThrow()).fileKey();
            // A job still processing, whose attempt uploaded its file and has not completed yet.
            MailingJob running = mailing.create(principal, request, "r." + UUID.randomUUID());
            Claimed<MailingJob> runningClaim =
                    store.mailingJobs().claim("c", clock.instant(), lease).orElseThrow();
            String uploading = "mailing/" + running.id() + "-" + runningClaim.attempt() + ".zip";
            try (FileStore.Upload up = files.create(uploading)) {
                up.stream().write(new byte[] {1, 2, 3});
                up.commit();
            }
            assertEquals(List.of(orphan, kept, uploading).stream().sorted().toList(), keys(files));

            assertEquals(Optional.of(List.of()), mailing.removeOrphanFiles(), "younger than the safe age");
            clock.advance(MailingService.ORPHAN_AGE.plusMinutes(1));
            // While another server sweeps, this one does not.
            AtomicReference<Optional<List<String>>> meanwhile = new AtomicReference<>();
            assertTrue(store.mailingJobs()
                    .runAlone("export-orphan-sweep", () -> meanwhile.set(mailing.removeOrphanFiles())));
            assertEquals(Optional.empty(), meanwhile.get(), "another server holds the sweep");
            assertEquals(List.of(orphan, kept, uploading).stream().sorted().toList(), keys(files));

            assertEquals(Optional.of(List.of(orphan)), mailing.removeOrphanFiles());
            assertEquals(List.of(kept, uploading).stream().sorted().toList(), keys(files));
            try (MailingService.Download served = mailing.download(principal, lost.id())) {
                assertTrue(served.file().size() > 0, "the job's own file is served");
            }
        }
    }
}
