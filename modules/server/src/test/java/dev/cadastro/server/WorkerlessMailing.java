package dev.cadastro.server;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.UUID;

/**
 * The mailing API on a database of its own where no worker runs, so a job stays {@code processando}
 * until the test itself claims and runs it. Served through a real socket on the fixture's runtime.
 * {@link #broken} has a file store that cannot write (a file stands where the folder of exports
 * belongs), so a job that runs fails for sure.
 */
final class WorkerlessMailing implements AutoCloseable {
    final ServerFixture f;
    private final Store store;
    private final MailingService mailing;
    private final TestRuntime.Listener http;

    private WorkerlessMailing(ServerFixture f, LuceneRegister register, FileStore files) {
        this.f = f;
        try {
            String server = f.server.store().embedded().orElseThrow().jdbcUrl();
            String name = "workerless_" + UUID.randomUUID().toString().replace("-", "");
            try (Connection c = DriverManager.getConnection(server);
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            }
            store = Store.open(Database.url(server.replace("/postgres?", "/" + name + "?")), f.clock);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        mailing = new MailingService(
                register,
                store.mailingJobs(),
                files,
                ZipLeadFileWriter.standard(),
                new CostRules(f.clock),
                f.clock,
                new SecureRandom(),
                Duration.ofDays(7),
                () -> {});
        http = f.listen(
                CompanyDataRoutes.router(register, store, store.admission(1_000_000, f.clock), f.clock, mailing));
    }

    /** Over the fixture's register, with a file store that cannot write. */
    static WorkerlessMailing broken(ServerFixture f) {
        try {
            Path root = Files.createTempDirectory(Path.of("target"), "workerless-");
            Files.writeString(root.resolve("mailing"), "a file where the folder of exports should be");
            return new WorkerlessMailing(f, f.server.register(), new LocalFolderFileStore(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Over this register, with a working file store. */
    static WorkerlessMailing over(ServerFixture f, LuceneRegister register) {
        try {
            return new WorkerlessMailing(
                    f, register, new LocalFolderFileStore(Files.createTempDirectory(Path.of("target"), "workerless-")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return http.port();
    }

    MailingService mailing() {
        return mailing;
    }

    Account account(long credits) {
        Account a = store.accounts().create("workerless " + UUID.randomUUID(), new Plan("e2e", 1_000_000));
        store.ledger().topUp(a.id(), CreditKind.CREDITS, credits, IdempotencyKey.of("w:" + UUID.randomUUID()), "e2e");
        return a;
    }

    String key(Account account) {
        return new ApiKeyIssuer(store.accounts(), store.apiKeys(), f.clock, new SecureRandom())
                .issue(account.id(), "e2e", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                .secret();
    }

    Balance balance(Account account) {
        return store.ledger().balance(account.id(), CreditKind.CREDITS);
    }

    /** The one waiting job, claimed as a worker of this server would; nothing else claims here. */
    Claimed<MailingJob> claim() {
        Optional<Claimed<MailingJob>> claimed =
                store.mailingJobs().claim("test-worker", f.clock.instant(), Duration.ofSeconds(30));
        return claimed.orElseThrow(() -> new AssertionError("no job waits to be claimed"));
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            store.close();
        }
    }
}
