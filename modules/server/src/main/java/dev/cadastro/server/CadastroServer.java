package dev.cadastro.server;

import dev.cadastro.core.calls.CallIngest;
import dev.cadastro.core.calls.CallIngestLoop;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.credit.CreditReportCache;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.enrichment.EnrichmentService;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.LocalFolderFileStore;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.person.PersonJobs;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.sms.OtpKeyring;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.core.work.Workers;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Health;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Router;
import dev.cadastro.http.companydata.CompanyDataApi;
import dev.cadastro.http.jdk.JdkHttpServerRuntime;
import dev.cadastro.http.jdk.RuntimeOptions;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The running company-data service: the published Lucene register, the PostgreSQL store (accounts,
 * keys, ledger, rate limits), the outside providers (simulated by default, {@link ProviderOptions}),
 * the core's use cases over them, and the HTTP adapter on the JDK runtime.
 * Closing it stops the server, then the register, then the store (and an embedded PostgreSQL).
 */
public final class CadastroServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CadastroServer.class.getName());

    /** How often idempotency keys, export files and cached credit reports past their retention are deleted. */
    private static final long HOUSEKEEPING_EVERY_MINUTES = 10;

    private final LuceneRegister register;
    private final Store store;
    private final MailingService mailing;
    private final Workers mailingWorkers;
    private final ProviderOptions.Providers providers;
    private final SmsOptions.Sms sms;
    private final OtpService otp;
    private final JdkHttpServerRuntime http;
    private final ScheduledExecutorService housekeeping;
    private volatile PushService push;
    /** The management listener ({@code /metrics}), when started with metrics. */
    private volatile JdkHttpServerRuntime metricsHttp;
    // The call-records ingest, once a call source is wired (startCallIngest).
    private final Clock clock;
    private CallIngestLoop callIngest;
    /** The call-records service, when this server runs it; set once by {@link #start(Config, CallRecordsOptions)}. */
    private CallRecordsService calls;
    /** How long {@link #close()} reports not ready before it stops accepting. */
    private final Duration drain;
    /** Set first by {@link #close()}: readiness answers 503 from then on. */
    private volatile boolean stopping;

    /** Readiness problem: the server is stopping (draining). */
    public static final String NOT_READY_STOPPING = "encerrando";
    /** Readiness problem: the server is still starting. */
    public static final String NOT_READY_STARTING = "iniciando";
    /** Readiness problem: the register index has no open published generation. */
    public static final String NOT_READY_INDEX = "indice_indisponivel";
    /** Readiness problem: the database did not answer {@code SELECT 1} in time. */
    public static final String NOT_READY_DATABASE = "banco_indisponivel";

    private CadastroServer(
            LuceneRegister register,
            Store store,
            MailingService mailing,
            Workers mailingWorkers,
            ProviderOptions.Providers providers,
            SmsOptions.Sms sms,
            JdkHttpServerRuntime http,
            Clock clock,
            Duration drain) {
        this.drain = drain;
        this.register = register;
        this.store = store;
        this.mailing = mailing;
        this.mailingWorkers = mailingWorkers;
        this.providers = providers;
        this.sms = sms;
        this.otp = sms.service(store.otpStore(), clock);
        this.http = http;
        this.clock = clock;
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("cadastro-housekeeping").factory());
        IdempotentCalls keys = new IdempotentCalls(store.idempotency(), clock);
        housekeeping.scheduleWithFixedDelay(
                () -> housekeeping(keys, mailing, store.creditReports(), otp, store.personJobs(), clock),
                1,
                HOUSEKEEPING_EVERY_MINUTES,
                TimeUnit.MINUTES);
    }

    private static void housekeeping(
            IdempotentCalls keys,
            MailingService mailing,
            CreditReportCache reports,
            OtpService otp,
            PersonJobs personJobs,
            Clock clock) {
        try {
            long n = keys.purge();
            LOG.log(System.Logger.Level.DEBUG, "forgot {0} idempotency keys past their retention", n);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "purging idempotency keys failed; retrying later", e);
        }
        try {
            int n = mailing.removeExpiredFiles();
            LOG.log(System.Logger.Level.DEBUG, "removed {0} export files past their retention", n);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "removing expired export files failed; retrying later", e);
        }
        try {
            // Personal data: a cached report is deleted as soon as no rule can serve it.
            int n = reports.purgeFetchedBefore(clock.instant().minus(CreditReportService.CACHE_TERM));
            LOG.log(System.Logger.Level.DEBUG, "forgot {0} cached credit reports past their term", n);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "purging cached credit reports failed; retrying later", e);
        }
        try {
            // A server that stopped between an SMS hold and the provider's answer: release the hold.
            otp.releaseStuck();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "releasing stuck SMS holds failed; retrying later", e);
        }
        try {
            // Personal data: an unread job's CPF or phone goes once the job expired (24 h).
            int n = personJobs.purge(clock.instant());
            LOG.log(System.Logger.Level.DEBUG, "forgot {0} person jobs past their term", n);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "purging person jobs failed; retrying later", e);
        }
    }

    /**
     * Mailing exports: how many run at once on this server, how long their files are kept, and the
     * lease a running export holds (renewed every third of it; a server that dies frees it after this).
     */
    public record MailingOptions(int workers, Duration retention, Duration lease, Duration poll, Duration grace) {
        public MailingOptions {
            if (workers < 1) {
                throw new IllegalArgumentException("mailing workers " + workers + " must be at least 1");
            }
            for (Duration d : List.of(retention, lease, poll, grace)) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("mailing durations must be positive: " + d);
                }
            }
        }

        /** Two exports at once, files kept 7 days, a 30-second lease, polled every second, 10 s to finish at a stop. */
        public static MailingOptions defaults() {
            return new MailingOptions(
                    2, Duration.ofDays(7), Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(10));
        }

        public MailingOptions withRetention(Duration retention) {
            return new MailingOptions(workers, retention, lease, poll, grace);
        }

        public MailingOptions withWorkers(int workers) {
            return new MailingOptions(workers, retention, lease, poll, grace);
        }
    }

    /**
     * What to serve and where.
     *
     * @param files the folder of export files (a local {@link LocalFolderFileStore})
     * @param providers the bureau and the credit bureau, simulated by default
     * @param sms the SMS provider and the code keys, simulated and generated under the index's parent
     *     folder by default
     */
    public record Config(
            Path index,
            Database database,
            InetSocketAddress address,
            RuntimeOptions runtime,
            OptionalLong requestsPerMinute,
            Clock clock,
            Path files,
            MailingOptions mailing,
            ProviderOptions providers,
            SmsOptions sms,
            PushOptions push) {
        public Config {
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(runtime, "runtime");
            Objects.requireNonNull(requestsPerMinute, "requestsPerMinute");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(files, "files");
            Objects.requireNonNull(mailing, "mailing");
            Objects.requireNonNull(providers, "providers");
            Objects.requireNonNull(sms, "sms");
            Objects.requireNonNull(push, "push");
            requestsPerMinute.ifPresent(n -> {
                if (n < 1) {
                    throw new IllegalArgumentException("requests per minute " + n + " must be at least 1");
                }
            });
        }

        /** Export files in {@code files} beside the index, the default mailing options, the simulated providers. */
        public Config(
                Path index,
                Database database,
                InetSocketAddress address,
                RuntimeOptions runtime,
                OptionalLong requestsPerMinute,
                Clock clock) {
            this(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    index.toAbsolutePath().resolveSibling("files"),
                    MailingOptions.defaults(),
                    ProviderOptions.simulated(),
                    SmsOptions.under(index.toAbsolutePath().getParent()),
                    PushOptions.defaults());
        }

        /** The spec's defaults: 120 requests per minute per key, the system clock. */
        public static Config of(Path index, Database database, InetSocketAddress address) {
            return new Config(
                    index, database, address, RuntimeOptions.defaults(), OptionalLong.empty(), Clock.systemUTC());
        }

        public Config withFiles(Path files, MailingOptions mailing) {
            return new Config(
                    index, database, address, runtime, requestsPerMinute, clock, files, mailing, providers, sms, push);
        }

        public Config withProviders(ProviderOptions providers) {
            return new Config(
                    index, database, address, runtime, requestsPerMinute, clock, files, mailing, providers, sms, push);
        }

        public Config withSms(SmsOptions sms) {
            return new Config(
                    index, database, address, runtime, requestsPerMinute, clock, files, mailing, providers, sms, push);
        }

        public Config withPush(PushOptions push) {
            return new Config(
                    index, database, address, runtime, requestsPerMinute, clock, files, mailing, providers, sms, push);
        }
    }

    /** Opens the register and the store, starts the export workers, then starts listening. */
    public static CadastroServer start(Config config) {
        return start(config, null);
    }

    /**
     * {@link #start(Config)}, plus the call-records service on its own listeners (its API, the recording
     * host) and its ingest loop, over the same store and files, with its own keyring ({@link
     * CallsSecrets}); none when {@code callRecords} is null.
     */
    public static CadastroServer start(Config config, CallRecordsOptions callRecords) {
        return start(config, callRecords, Observability.off());
    }

    /**
     * {@link #start(Config, CallRecordsOptions)}, watched as {@code observability} says: with a metrics
     * address, every listener's requests, the ledger and the push deliveries are counted and a
     * management listener serves {@code /metrics} and the health endpoints there; with the access log,
     * every listener writes a line per request to {@link AccessLog#LOGGER}.
     */
    public static CadastroServer start(Config config, CallRecordsOptions callRecords, Observability observability) {
        Objects.requireNonNull(observability, "observability");
        PrometheusTelemetry metrics = observability.metrics().isPresent() ? PrometheusTelemetry.create() : null;
        Telemetry telemetry = metrics != null ? metrics : Telemetry.NONE;
        AccessLog accessLog = observability.accessLog() ? AccessLog.toSystemLogger() : AccessLog.off();
        if (!Files.exists(config.index().resolve("CURRENT"))) {
            throw new IllegalStateException("no published register index under " + config.index()
                    + ": load one first (./cadastro load --dump DIR --index " + config.index() + ")");
        }
        LuceneRegister register = LuceneRegister.open(config.index());
        Store store = null;
        Workers workers = null;
        SmsOptions.Sms sms = null;
        CallRecordsService calls = null;
        try {
            store = Store.open(config.database(), config.clock(), telemetry);
            LocalFolderFileStore files = new LocalFolderFileStore(config.files());
            files.removeOrphans(config.clock().instant().minus(Duration.ofHours(1)));
            AtomicReference<Workers> started = new AtomicReference<>();
            MailingService mailing = new MailingService(
                    register,
                    store.mailingJobs(),
                    files,
                    ZipLeadFileWriter.standard(),
                    new CostRules(config.clock()),
                    config.clock(),
                    new SecureRandom(),
                    config.mailing().retention(),
                    () -> {
                        Workers w = started.get();
                        if (w != null) {
                            w.nudge();
                        }
                    });
            MailingOptions m = config.mailing();
            workers = Workers.start(
                    "mailing",
                    store.mailingJobs(),
                    mailing::process,
                    owner(),
                    config.clock(),
                    m.workers(),
                    m.lease(),
                    m.poll(),
                    m.grace());
            started.set(workers);
            Admission admission =
                    store.admission(config.requestsPerMinute().orElse(Admission.REQUESTS_PER_MINUTE), config.clock());
            ProviderOptions.Providers providers = config.providers().build(register);
            sms = config.sms().build(config.clock());
            Router router = router(register, store, admission, config.clock(), mailing, providers, sms);
            // Health answers before the router: no key, no rate limit, no account; "starting" until the
            // server object exists.
            AtomicReference<CadastroServer> running = new AtomicReference<>();
            Supplier<List<String>> readiness = () -> {
                CadastroServer s = running.get();
                return s == null ? List.of(NOT_READY_STARTING) : s.readinessProblems();
            };
            if (callRecords != null) {
                OtpKeyring callKeys = callRecords
                        .keys()
                        .orElseGet(() -> CallsSecrets.KEYRING.resolve(
                                System.getenv(),
                                config.sms().keysFile().toAbsolutePath().resolveSibling("calls-keys.properties"),
                                true,
                                new SecureRandom()));
                calls = CallRecordsService.start(
                        callRecords,
                        store,
                        files,
                        callKeys,
                        config.clock(),
                        config.runtime(),
                        readiness,
                        telemetry,
                        accessLog);
            }
            JdkHttpServerRuntime http = JdkHttpServerRuntime.start(
                    config.address(),
                    Observed.around(Health.around(router, readiness), Service.COMPANY_DATA, telemetry, accessLog),
                    Service.COMPANY_DATA,
                    config.runtime());
            LOG.log(System.Logger.Level.INFO, "company-data service on {0}", http.address());
            CadastroServer server = new CadastroServer(
                    register,
                    store,
                    mailing,
                    workers,
                    providers,
                    sms,
                    http,
                    config.clock(),
                    config.runtime().drain());
            server.calls = calls;
            running.set(server);
            // The server owns them from here: a failure below closes them through server.close().
            calls = null;
            // Push deliveries (issue 19): started last, closed first.
            try {
                PushOptions push = config.push();
                if (server.calls != null) {
                    // url_gravacao in each body: the same permanent signed link GET /v1/ligacoes/{id} gives.
                    var links = server.calls.links();
                    push = push.withRecordingUrl(links::permanent);
                }
                server.push = PushService.start(store, config.clock(), push, owner(), telemetry);
                if (metrics != null) {
                    server.metricsHttp = startMetrics(
                            metrics, server, observability.metrics().orElseThrow(), readiness, config);
                }
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        } catch (IOException e) {
            if (calls != null) {
                calls.close();
            }
            if (workers != null) {
                workers.close();
            }
            if (sms != null) {
                sms.close();
            }
            closeQuietly(register, store);
            throw new UncheckedIOException("could not start on " + config.address() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (calls != null) {
                calls.close();
            }
            if (workers != null) {
                workers.close();
            }
            if (sms != null) {
                sms.close();
            }
            closeQuietly(register, store);
            throw e;
        }
    }

    /** Registers the scrape-time gauges and starts the management listener. */
    private static JdkHttpServerRuntime startMetrics(
            PrometheusTelemetry metrics,
            CadastroServer server,
            InetSocketAddress address,
            Supplier<List<String>> readiness,
            Config config) {
        ServerMetrics.register(metrics, server.register);
        ServerMetrics.providers(metrics, () -> {
            List<ProviderGuard> guards = new ArrayList<>(server.providers.guards());
            server.sms.guard().ifPresent(guards::add);
            return guards;
        });
        ServerMetrics.queues(metrics, server.store.dataSource(), config.clock());
        try {
            // The management listener answers its own requests uncounted: a scrape every few seconds
            // would otherwise be most of the traffic in the request metrics.
            JdkHttpServerRuntime management = JdkHttpServerRuntime.start(
                    address,
                    Health.around(ServerMetrics.scrape(metrics), readiness),
                    Service.COMPANY_DATA,
                    config.runtime());
            LOG.log(System.Logger.Level.INFO, "metrics on {0}{1}", management.address(), ServerMetrics.PATH);
            return management;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not start the metrics listener on " + address + ": " + e.getMessage(), e);
        }
    }

    /** Names this process in job leases: host, process id and a random suffix. */
    private static String owner() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ProcessHandle.current().pid() + ":"
                + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * The company-data router over these adapters, with the simulated providers behind guards of their
     * own (not shared with a running server's).
     */
    public static Router router(
            LuceneRegister register, Store store, Admission admission, Clock clock, MailingService mailing) {
        return router(
                register,
                store,
                admission,
                clock,
                mailing,
                ProviderOptions.simulated().build(register));
    }

    /**
     * The company-data router over these adapters and providers, without an SMS provider: its sends
     * answer {@code SMS_INDISPONIVEL} ({@link SmsOptions.Sms#none()}).
     */
    public static Router router(
            LuceneRegister register,
            Store store,
            Admission admission,
            Clock clock,
            MailingService mailing,
            ProviderOptions.Providers providers) {
        return router(register, store, admission, clock, mailing, providers, SmsOptions.Sms.none());
    }

    /** The company-data router over these adapters: what a host other than the JDK runtime mounts. */
    public static Router router(
            LuceneRegister register,
            Store store,
            Admission admission,
            Clock clock,
            MailingService mailing,
            ProviderOptions.Providers providers,
            SmsOptions.Sms sms) {
        CostRules costs = new CostRules(clock);
        CompanyService companies = new CompanyService(register, store.ledger(), costs);
        EnrichmentService enrichment = new EnrichmentService(register, providers.bureau(), store.ledger(), costs);
        CreditReportService credit =
                new CreditReportService(providers.credit(), store.creditReports(), store.ledger(), costs, clock);
        PersonLookupService persons = new PersonLookupService(
                providers.person(),
                store.personAudit(),
                store.personJobs(),
                store.ledger(),
                costs,
                personAuditKey(sms.keys()),
                clock,
                new SecureRandom());
        IdempotentResponses idempotent = new IdempotentResponses(new IdempotentCalls(store.idempotency(), clock));
        OtpService otp = sms.service(store.otpStore(), clock);
        return CompanyDataApi.router(admission, companies, mailing, enrichment, credit, otp, persons, idempotent);
    }

    /**
     * The key of the person audit trail's keyed hash: derived from the current key of the server's
     * secrets keyring ({@link OtpSecrets}), under the keyring's key id, so one keyring holds and rotates
     * every secret (docs/adr/0024).
     */
    static SubjectDigests personAuditKey(OtpKeyring keys) {
        OtpKeyring.Derived derived = keys.derive(PERSON_AUDIT_KEY_PURPOSE);
        return new SubjectDigests(derived.keyId(), derived.secret());
    }

    /** What the person audit key is derived for. */
    static final String PERSON_AUDIT_KEY_PURPOSE = "person-audit";

    /** The provider ports this server's use cases call, guards included; other routers may share them. */
    public ProviderOptions.Providers providers() {
        return providers;
    }

    /** The SMS provider and code keys of this server (the simulated provider's inbox and fault plan). */
    public SmsOptions.Sms sms() {
        return sms;
    }

    /** The SMS code use case this server runs (delivery receipts and housekeeping). */
    public OtpService otp() {
        return otp;
    }

    /** The mailing use case this server runs (its workers claim the jobs). */
    public MailingService mailing() {
        return mailing;
    }

    public int port() {
        return http.port();
    }

    public InetSocketAddress address() {
        return http.address();
    }

    /** Where the management listener serves {@code /metrics}, when this server was started with metrics. */
    public java.util.Optional<InetSocketAddress> metricsAddress() {
        JdkHttpServerRuntime m = metricsHttp;
        return m == null ? java.util.Optional.empty() : java.util.Optional.of(m.address());
    }

    public Store store() {
        return store;
    }

    /** The call-records service, when this server was started with it. */
    public java.util.Optional<CallRecordsService> calls() {
        return java.util.Optional.ofNullable(calls);
    }

    public LuceneRegister register() {
        return register;
    }

    /**
     * Starts ingesting calls from {@code sources} into this server's store every {@code interval} (the
     * spec's refresh is {@link CallIngestLoop#DEFAULT_INTERVAL}), the first tick at once; {@link #close()}
     * stops it. Servers sharing a database share the sources through the ingest checkpoints' leases.
     */
    public CallIngestLoop startCallIngest(List<CallSource> sources, Duration interval) {
        return startCallIngest(sources, interval, CallIngest.Options.defaults(owner()));
    }

    /** {@link #startCallIngest(List, Duration)} with other ingest options (the first look-back, the lease). */
    public synchronized CallIngestLoop startCallIngest(
            List<CallSource> sources, Duration interval, CallIngest.Options options) {
        if (callIngest != null) {
            throw new IllegalStateException("the call ingest of this server is already running");
        }
        callIngest = CallIngestLoop.start(
                new CallIngest(store.calls(), store.ingestCheckpoints(), options, clock), sources, clock, interval);
        return callIngest;
    }

    /**
     * What keeps this server from being ready, as the codes {@code GET /health/ready} lists; empty when
     * ready: not stopping, the register's published generation open, the database answering {@code
     * SELECT 1} within {@value #DATABASE_PROBE_MILLIS} ms (the store opened, so its migrations are applied).
     */
    public List<String> readinessProblems() {
        List<String> problems = new ArrayList<>();
        if (stopping) {
            problems.add(NOT_READY_STOPPING);
        }
        try {
            register.published();
        } catch (RuntimeException e) {
            problems.add(NOT_READY_INDEX);
        }
        if (!databaseAnswers()) {
            problems.add(NOT_READY_DATABASE);
        }
        return List.copyOf(problems);
    }

    private static final long DATABASE_PROBE_MILLIS = 1500;

    /** {@code SELECT 1} through the pool, on a virtual thread, bounded so a dead database does not hang the probe. */
    private boolean databaseAnswers() {
        CompletableFuture<Boolean> probe = CompletableFuture.supplyAsync(
                () -> {
                    try (Connection c = store.dataSource().getConnection();
                            Statement st = c.createStatement()) {
                        st.setQueryTimeout(2);
                        return st.execute("SELECT 1");
                    } catch (SQLException | RuntimeException e) {
                        return false;
                    }
                },
                task -> Thread.ofVirtual().name("cadastro-readiness").start(task));
        try {
            return probe.get(DATABASE_PROBE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Stops: first reports not ready and keeps serving for the drain period ({@link
     * RuntimeOptions#drain()}), then stops accepting and closes everything.
     */
    @Override
    public void close() {
        stopping = true;
        if (drain.isPositive()) {
            LOG.log(System.Logger.Level.INFO, "not ready; draining for {0} before stopping", drain);
            try {
                Thread.sleep(drain);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        housekeeping.shutdownNow();
        try {
            if (push != null) {
                push.close();
            }
            synchronized (this) {
                if (callIngest != null) {
                    callIngest.close();
                }
            }
            if (calls != null) {
                calls.close();
            }
            http.close();
            if (metricsHttp != null) {
                metricsHttp.close();
            }
            mailingWorkers.close();
            providers.close();
            sms.close();
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
