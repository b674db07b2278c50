package dev.cadastro.server;

import dev.cadastro.core.calls.CallIngest;
import dev.cadastro.core.calls.CallIngestLoop;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.enrichment.EnrichmentService;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.overview.AccountOverviewService;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.sms.OtpKeyring;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Health;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Router;
import dev.cadastro.http.companydata.CompanyDataApi;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The running company-data service: the published Lucene register, the PostgreSQL store (accounts,
 * keys, ledger, rate limits), the outside providers (simulated by default, {@link ProviderOptions}),
 * the core's use cases over them, and the HTTP adapter on Jetty 12 ({@link JettyRuntime}: one listener per
 * service, the recording host and the metrics).
 * Closing it stops the server, then the register, then the store (and an embedded PostgreSQL).
 */
public final class CadastroServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CadastroServer.class.getName());

    private final CadastroEngine engine;
    private final JettyRuntime http;
    // The call-records ingest, once a call source is wired (startCallIngest).
    private CallIngestLoop callIngest;
    /** The call-records service's listeners, when this server runs it. */
    private final CallRecordsService calls;
    /** How long {@link #close()} reports not ready before it stops accepting. */
    private final Duration drain;
    /** The management listener ({@code /metrics}), when started with metrics. */
    private volatile JettyRuntime metricsHttp;

    /** Readiness problem: the server is stopping (draining). */
    public static final String NOT_READY_STOPPING = CadastroEngine.NOT_READY_STOPPING;
    /** Readiness problem: the server is still starting. */
    public static final String NOT_READY_STARTING = CadastroEngine.NOT_READY_STARTING;
    /** Readiness problem: the register index has no open published generation. */
    public static final String NOT_READY_INDEX = CadastroEngine.NOT_READY_INDEX;
    /** Readiness problem: the database did not answer {@code SELECT 1} in time. */
    public static final String NOT_READY_DATABASE = CadastroEngine.NOT_READY_DATABASE;

    private CadastroServer(CadastroEngine engine, JettyRuntime http, CallRecordsService calls, Duration drain) {
        this.engine = engine;
        this.http = http;
        this.calls = calls;
        this.drain = drain;
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

    /** Where a following server's register is published, and how it follows it. */
    public record IndexFollowing(FileStore store, String prefix, FollowOptions options) {
        public IndexFollowing {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(options, "options");
        }
    }

    /**
     * What to serve and where.
     *
     * @param files the folder of export files and recordings (a local {@link LocalFolderFileStore}), unless
     *     {@code fileStore} is given
     * @param fileStore an open store used instead of the folder, such as an object store several servers
     *     share ({@code --files s3://...}); whoever opened it closes it after the server
     * @param providers the bureau and the credit bureau, simulated by default
     * @param sms the SMS provider and the code keys, simulated and generated under the index's parent
     *     folder by default
     * @param following when present, {@code index} is a cache that follows the register published in a
     *     file store (an object store), and the server is unready until its first generation is open
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
            PushOptions push,
            Optional<FileStore> fileStore,
            Optional<IndexFollowing> following) {
        public Config {
            Objects.requireNonNull(following, "following");
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
            Objects.requireNonNull(fileStore, "fileStore");
            requestsPerMinute.ifPresent(n -> {
                if (n < 1) {
                    throw new IllegalArgumentException("requests per minute " + n + " must be at least 1");
                }
            });
        }

        /** A server over a local index root ({@code index} names it). */
        public Config(
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
            this(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    Optional.empty(),
                    Optional.empty());
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
                    PushOptions.defaults(),
                    Optional.empty(),
                    Optional.empty());
        }

        /** The contract's defaults: 120 requests per minute per key, the system clock. */
        public static Config of(Path index, Database database, InetSocketAddress address) {
            return new Config(
                    index, database, address, RuntimeOptions.defaults(), OptionalLong.empty(), Clock.systemUTC());
        }

        public Config withFiles(Path files, MailingOptions mailing) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    fileStore,
                    following);
        }

        /** Export files and recordings in {@code store} (which the caller closes) instead of a folder. */
        public Config withFileStore(FileStore store, MailingOptions mailing) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    Optional.of(store),
                    following);
        }

        public Config withProviders(ProviderOptions providers) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    fileStore,
                    following);
        }

        public Config withSms(SmsOptions sms) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    fileStore,
                    following);
        }

        /**
         * Follows the register published under {@code prefix} of {@code store} ({@code load --publish}):
         * {@code index} becomes the local cache it is downloaded into, verified and opened from.
         */
        public Config withIndexFollowing(FileStore store, String prefix, FollowOptions options) {
            return withIndexFollowing(new IndexFollowing(store, prefix, options));
        }

        /** {@link #withIndexFollowing(FileStore, String, FollowOptions)}; null serves {@code index} as it is. */
        public Config withIndexFollowing(IndexFollowing following) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    fileStore,
                    Optional.ofNullable(following));
        }

        public Config withPush(PushOptions push) {
            return new Config(
                    index,
                    database,
                    address,
                    runtime,
                    requestsPerMinute,
                    clock,
                    files,
                    mailing,
                    providers,
                    sms,
                    push,
                    fileStore,
                    following);
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
        // What the runtimes refuse before any handler runs, counted and logged as the handlers' requests.
        Observed.Refusals callRefusals = Observed.refusals(Service.CALL_RECORDS, telemetry, accessLog);
        // The recording host listens first: the links' default base URL names its port.
        CallRecordsService.Recordings recordings = null;
        CadastroEngine engine = null;
        CallRecordsService calls = null;
        JettyRuntime management = null;
        try {
            CadastroEngine.CallRecordsSetup setup = null;
            if (callRecords != null) {
                recordings = CallRecordsService.listenRecordings(callRecords, config.runtime(), callRefusals);
                setup = new CadastroEngine.CallRecordsSetup(recordings.baseUrl(), callRecords.keys());
            }
            engine = CadastroEngine.open(config, setup, telemetry, accessLog);
            if (metrics != null) {
                // Before the API listeners: a metrics port that cannot be bound stops the start before
                // any client was served, with nothing to drain.
                management =
                        startMetrics(metrics, engine, observability.metrics().orElseThrow(), config);
            }
            if (recordings != null) {
                calls = CallRecordsService.start(
                        callRecords, recordings, engine.callRecords().orElseThrow(), config.runtime(), callRefusals);
                recordings = null;
            }
            JettyRuntime http = JettyRuntime.start(
                    config.address(),
                    engine.companyData(),
                    Service.COMPANY_DATA,
                    config.runtime(),
                    Observed.refusals(Service.COMPANY_DATA, telemetry, accessLog));
            LOG.log(System.Logger.Level.INFO, "company-data service on {0}", http.address());
            CadastroServer server =
                    new CadastroServer(engine, http, calls, config.runtime().drain());
            server.metricsHttp = management;
            return server;
        } catch (IOException e) {
            closeAll(management, recordings, calls, engine);
            throw new UncheckedIOException("could not start on " + config.address() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAll(management, recordings, calls, engine);
            throw e;
        }
    }

    /** Registers the scrape-time gauges and starts the management listener. */
    private static JettyRuntime startMetrics(
            PrometheusTelemetry metrics, CadastroEngine engine, InetSocketAddress address, Config config) {
        ServerMetrics.register(metrics, engine.register());
        ServerMetrics.providers(metrics, () -> {
            List<ProviderGuard> guards = new ArrayList<>(engine.providers().guards());
            engine.sms().guard().ifPresent(guards::add);
            return guards;
        });
        ServerMetrics.queues(metrics, engine.store().dataSource(), config.clock());
        ServerMetrics.accessLog(metrics);
        try {
            // The management listener answers its own requests uncounted: a scrape every few seconds
            // would otherwise be most of the traffic in the request metrics.
            JettyRuntime management = JettyRuntime.start(
                    address,
                    Health.around(ServerMetrics.scrape(metrics), engine::readinessProblems, engine::alive),
                    Service.COMPANY_DATA,
                    config.runtime());
            LOG.log(System.Logger.Level.INFO, "metrics on {0}{1}", management.address(), ServerMetrics.PATH);
            return management;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not start the metrics listener on " + address + ": " + e.getMessage(), e);
        }
    }

    /** Where the management listener serves {@code /metrics}, when this server was started with metrics. */
    public java.util.Optional<InetSocketAddress> metricsAddress() {
        JettyRuntime m = metricsHttp;
        return m == null ? java.util.Optional.empty() : java.util.Optional.of(m.address());
    }

    private static void closeAll(
            JettyRuntime management,
            CallRecordsService.Recordings recordings,
            CallRecordsService calls,
            CadastroEngine engine) {
        if (management != null) {
            management.close();
        }
        if (recordings != null) {
            recordings.close();
        }
        if (calls != null) {
            calls.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** The engine this server listens on: the handlers, the use cases and the stores. */
    public CadastroEngine engine() {
        return engine;
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

    /** The company-data router over these adapters: what a host other than the server mounts. */
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
        AccountOverviewService overviews = new AccountOverviewService(store.accountFunds());
        return CompanyDataApi.router(
                admission, companies, mailing, enrichment, credit, otp, persons, overviews, idempotent);
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
        return engine.providers();
    }

    /** The SMS provider and code keys of this server (the simulated provider's inbox and fault plan). */
    public SmsOptions.Sms sms() {
        return engine.sms();
    }

    /** The SMS code use case this server runs (delivery receipts and housekeeping). */
    public OtpService otp() {
        return engine.otp();
    }

    /** The mailing use case this server runs (its workers claim the jobs). */
    public MailingService mailing() {
        return engine.mailing();
    }

    public int port() {
        return http.port();
    }

    public InetSocketAddress address() {
        return http.address();
    }

    public Store store() {
        return engine.store();
    }

    /** The call-records service, when this server was started with it. */
    public java.util.Optional<CallRecordsService> calls() {
        return java.util.Optional.ofNullable(calls);
    }

    public LuceneRegister register() {
        return engine.register();
    }

    /**
     * Starts ingesting calls from {@code sources} into this server's store every {@code interval} (the
     * contract's refresh is {@link CallIngestLoop#DEFAULT_INTERVAL}), the first tick at once; {@link #close()}
     * stops it. Servers sharing a database share the sources through the ingest checkpoints' leases.
     */
    public CallIngestLoop startCallIngest(List<CallSource> sources, Duration interval) {
        return startCallIngest(sources, interval, CallIngest.Options.defaults(CadastroEngine.owner()));
    }

    /** {@link #startCallIngest(List, Duration)} with other ingest options (the first look-back, the lease). */
    public synchronized CallIngestLoop startCallIngest(
            List<CallSource> sources, Duration interval, CallIngest.Options options) {
        if (callIngest != null) {
            throw new IllegalStateException("the call ingest of this server is already running");
        }
        callIngest = CallIngestLoop.start(
                new CallIngest(engine.store().calls(), engine.store().ingestCheckpoints(), options, engine.clock()),
                sources,
                engine.clock(),
                interval);
        return callIngest;
    }

    /**
     * What keeps this server from being ready, as the codes {@code GET /health/ready} lists; empty when
     * ready ({@link CadastroEngine#readinessProblems()}).
     */
    public List<String> readinessProblems() {
        return engine.readinessProblems();
    }

    /**
     * Stops: first reports not ready and keeps serving for the drain period ({@link
     * RuntimeOptions#drain()}), then stops accepting and closes everything.
     */
    @Override
    public void close() {
        engine.beginStopping();
        if (drain.isPositive()) {
            LOG.log(System.Logger.Level.INFO, "not ready; draining for {0} before stopping", drain);
            try {
                Thread.sleep(drain);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
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
        } finally {
            engine.close();
        }
    }
}
