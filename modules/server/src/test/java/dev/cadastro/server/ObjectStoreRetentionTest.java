package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** The retention sweep deletes an expired export's object from the bucket, as it deletes a local file. */
class ObjectStoreRetentionTest {
    @TempDir
    Path dir;

    @Test
    void theRetentionSweepDeletesTheExpiredExportFromTheBucket() throws Exception {
        ServerFixture f = ServerFixture.get();
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "retention_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        ManualClock clock = new ManualClock(ServerFixture.START);
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir.resolve("s3"));
                Store store = Store.open(Database.url(server.replace("/postgres?", "/" + name + "?")), clock)) {
            s3.createBucket("retention");
            try (S3FileStore files =
                            S3FileStore.open(s3.connection(), S3Location.parse("--files", "s3://retention/p"));
                    S3Client client = s3.connection().client()) {
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
                Account account = store.accounts().create("retention " + UUID.randomUUID(), new Plan("teste", 1000));
                store.ledger()
                        .topUp(account.id(), CreditKind.CREDITS, 100, IdempotencyKey.of("t:" + UUID.randomUUID()), "t");
                Principal principal = new Principal(
                        new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                                .issue(account.id(), "test", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                                .key(),
                        account);
                MailingJob job = mailing.create(
                        principal,
                        new MailingRequest(RegisterQuery.parse(Map.of("ufs", List.of("RJ"))), 3, ExportFormat.CSV),
                        "r." + UUID.randomUUID());
                mailing.process(store.mailingJobs()
                        .claim("a", clock.instant(), Duration.ofSeconds(30))
                        .orElseThrow());
                String prefix = "p/mailing/" + job.id();
                assertEquals(1, objects(client, prefix), "the export is an object in the bucket");
                assertEquals(0, mailing.removeExpiredFiles(), "not expired yet");
                assertEquals(1, objects(client, prefix));
                clock.advance(Duration.ofDays(7));
                assertEquals(1, mailing.removeExpiredFiles());
                assertEquals(0, objects(client, prefix), "the sweep deleted the object");
            }
        }
    }

    private static int objects(S3Client client, String prefix) {
        return client.listObjectsV2(r -> r.bucket("retention").prefix(prefix))
                .contents()
                .size();
    }
}
