package dev.cadastro.server;

import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Router;
import dev.cadastro.http.companydata.CompanyDataApi;
import dev.cadastro.http.jdk.JdkHttpServerRuntime;
import dev.cadastro.http.jdk.RuntimeOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The running company-data service: the published Lucene register, the PostgreSQL store (accounts,
 * keys, ledger, rate limits), the core's use cases over them, and the HTTP adapter on the JDK runtime.
 * Closing it stops the server, then the register, then the store (and an embedded PostgreSQL).
 */
public final class CadastroServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CadastroServer.class.getName());

    private final LuceneRegister register;
    private final Store store;
    private final JdkHttpServerRuntime http;
    private final ScheduledExecutorService housekeeping;

    private CadastroServer(LuceneRegister register, Store store, JdkHttpServerRuntime http, Clock clock) {
        this.register = register;
        this.store = store;
        this.http = http;
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("cadastro-housekeeping").factory());
        IdempotentCalls keys = new IdempotentCalls(store.idempotency(), clock);
        housekeeping.scheduleWithFixedDelay(() -> purge(keys), 1, PURGE_EVERY_MINUTES, TimeUnit.MINUTES);
    }

    /** How often idempotency keys past their retention are deleted. */
    private static final long PURGE_EVERY_MINUTES = 10;

    private static void purge(IdempotentCalls keys) {
        try {
            long n = keys.purge();
            LOG.log(System.Logger.Level.DEBUG, "forgot {0} idempotency keys past their retention", n);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "purging idempotency keys failed; retrying later", e);
        }
    }

    /** What to serve and where. */
    public record Config(
            Path index,
            Database database,
            InetSocketAddress address,
            RuntimeOptions runtime,
            OptionalLong requestsPerMinute,
            Clock clock) {
        public Config {
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(runtime, "runtime");
            Objects.requireNonNull(requestsPerMinute, "requestsPerMinute");
            Objects.requireNonNull(clock, "clock");
            requestsPerMinute.ifPresent(n -> {
                if (n < 1) {
                    throw new IllegalArgumentException("requests per minute " + n + " must be at least 1");
                }
            });
        }

        /** The spec's defaults: 120 requests per minute per key, the system clock. */
        public static Config of(Path index, Database database, InetSocketAddress address) {
            return new Config(
                    index, database, address, RuntimeOptions.defaults(), OptionalLong.empty(), Clock.systemUTC());
        }
    }

    /** Opens the register and the store, then starts listening. */
    public static CadastroServer start(Config config) {
        if (!Files.exists(config.index().resolve("CURRENT"))) {
            throw new IllegalStateException("no published register index under " + config.index()
                    + ": load one first (./cadastro load --dump DIR --index " + config.index() + ")");
        }
        LuceneRegister register = LuceneRegister.open(config.index());
        Store store = null;
        try {
            store = Store.open(config.database(), config.clock());
            Admission admission =
                    store.admission(config.requestsPerMinute().orElse(Admission.REQUESTS_PER_MINUTE), config.clock());
            Router router = router(register, store, admission, config.clock());
            JdkHttpServerRuntime http =
                    JdkHttpServerRuntime.start(config.address(), router, Service.COMPANY_DATA, config.runtime());
            LOG.log(System.Logger.Level.INFO, "company-data service on {0}", http.address());
            return new CadastroServer(register, store, http, config.clock());
        } catch (IOException e) {
            closeQuietly(register, store);
            throw new UncheckedIOException("could not listen on " + config.address() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(register, store);
            throw e;
        }
    }

    /** The company-data router over these adapters: what a host other than the JDK runtime mounts. */
    public static Router router(LuceneRegister register, Store store, Admission admission, Clock clock) {
        CompanyService companies = new CompanyService(register, store.ledger(), new CostRules(clock));
        IdempotentResponses idempotent = new IdempotentResponses(new IdempotentCalls(store.idempotency(), clock));
        return CompanyDataApi.router(admission, companies, idempotent);
    }

    public int port() {
        return http.port();
    }

    public InetSocketAddress address() {
        return http.address();
    }

    public Store store() {
        return store;
    }

    public LuceneRegister register() {
        return register;
    }

    @Override
    public void close() {
        housekeeping.shutdownNow();
        try {
            http.close();
        } finally {
            closeQuietly(register, store);
        }
    }

    private static void closeQuietly(LuceneRegister register, Store store) {
        try {
            register.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the register failed", e);
        }
        if (store != null) {
            store.close();
        }
    }
}
