package dev.cadastro.server;

import dev.cadastro.core.calls.CallCursors;
import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.credit.CreditReportCache;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.person.PersonJobs;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.core.work.WorkerPool;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Health;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Request;
import dev.cadastro.http.RequestTelemetry;
import dev.cadastro.http.Router;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.http.callrecords.RecordingHost;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Cadastro without a listener: the published Lucene register, the PostgreSQL store, the providers, the
 * core's use cases, the background work (export workers, push deliveries, housekeeping) and the
 * handlers of both services, each behind its health endpoints. A host mounts the handlers in its own
 * server ({@code dev.cadastro.servlet.CadastroServlet} in a servlet container, docs/embedding.md);
 * {@code CadastroServer} mounts them on its Jetty runtime. Closing it stops the background work, then the
 * register, then the store (and an embedded PostgreSQL); the listeners are the host's to stop first.
 */
public final class CadastroEngine implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CadastroEngine.class.getName());

    /** How often idempotency keys, export files and cached credit reports past their retention are deleted. */
    private static final long HOUSEKEEPING_EVERY_MINUTES = 10;

    /** Readiness problem: the engine is stopping (draining). */
    public static final String NOT_READY_STOPPING = "encerrando";
    /** Readiness problem: the engine is still starting. */
    public static final String NOT_READY_STARTING = "iniciando";
    /** Readiness problem: the register index has no open published generation. */
    public static final String NOT_READY_INDEX = "indice_indisponivel";
    /** Readiness problem: the database did not answer {@code SELECT 1} in time. */
    public static final String NOT_READY_DATABASE = "banco_indisponivel";

    private static final long DATABASE_PROBE_MILLIS = 1500;

    /** The route label of the recording host's requests: their paths carry signed tokens. */
    static final String RECORDING_ROUTE = "/gravacoes/{link}";

    private final LuceneRegister register;
    private final Store store;
    private final Clock clock;
    private final MailingService mailing;
    private final WorkerPool<?> mailingWorkers;
    private final ProviderOptions.Providers providers;
    private final SmsOptions.Sms sms;
    private final OtpService otp;
    private final Router companyDataRouter;
    private final Handler companyData;
    private final CallRecordsPart calls;
    private final ScheduledExecutorService housekeeping;
    /** The requests under idempotency keys, and the threads that renew their leases. */
    private final IdempotentCalls keys;

    private volatile PushService push;
    private volatile boolean stopping;

    /**
     * The call-records service of an engine: its API and its recording host (each behind the health
     * endpoints), the read side's use case, the links it signs, and the recordings' files.
     *
     * @param recordingHost the recording host for a listener that sees whole paths: it serves {@code
     *     <base URL path>/<key>}
     * @param recordings the same host for a mount AT the base URL's path (a servlet mapped to {@code
     *     /gravacoes/*} for links at {@code https://host/gravacoes}): it serves {@code /<key>}
     */
    public record CallRecordsPart(
            Handler api,
            Handler recordingHost,
            Handler recordings,
            CallRecords records,
            RecordingLinks links,
            FileStore files) {}

    /**
     * The call-records service to open with an engine.
     *
     * @param recordingsBaseUrl where the signed recording links point: the recording host as clients
     *     reach it (its path is the path the recording host's handler sees, docs/embedding.md)
     * @param keys the keys that sign cursors and links, or empty for {@link CallsSecrets} (the
     *     environment, else {@code calls-keys.properties} beside the SMS code keys, created on first use)
     */
    public record CallRecordsSetup(String recordingsBaseUrl, Optional<Keyring> keys) {
        public CallRecordsSetup {
            Objects.requireNonNull(recordingsBaseUrl, "recordingsBaseUrl");
            Objects.requireNonNull(keys, "keys");
            if (!recordingsBaseUrl.startsWith("http://") && !recordingsBaseUrl.startsWith("https://")) {
                throw new IllegalArgumentException(
                        "recordings base URL " + recordingsBaseUrl + " must start with http:// or https://");
            }
        }

        /** Links at this base URL, signed with the keys {@link CallsSecrets} resolves. */
        public static CallRecordsSetup at(String recordingsBaseUrl) {
            return new CallRecordsSetup(recordingsBaseUrl, Optional.empty());
        }
    }

    private CadastroEngine(
            EngineConfig config,
            Parts parts,
            CallRecordsSetup callRecords,
            Telemetry telemetry,
            RequestTelemetry requests,
            AccessLog accessLog) {
        this.register = parts.register;
        this.store = parts.store;
        this.providers = parts.providers;
        this.sms = parts.sms;
        this.clock = config.clock();
        this.otp = sms.service(store.otpStore(), clock);
        this.mailing = mailingService(
                register, store, parts.files, clock, config.mailing().retention(), this::nudgeMailingWorkers);
        this.keys = new IdempotentCalls(store.idempotency(), clock);
        this.companyDataRouter =
                CompanyDataRoutes.router(register, store, admission(config), clock, mailing, providers, sms, keys);
        this.companyData = Observed.around(
                Health.around(companyDataRouter, this::readinessProblems, this::alive, this::dataReference),
                Service.COMPANY_DATA,
                telemetry,
                requests,
                accessLog);
        this.calls = callRecords == null
                ? null
                : callRecordsPart(config, callRecords, parts.files, telemetry, requests, accessLog);
        // The background work starts once all it serves is built: nothing after this fails.
        this.mailingWorkers = startMailingWorkers(config);
        this.housekeeping = startHousekeeping();
    }

    /** Opens the company-data service alone (no call-records service). */
    public static CadastroEngine open(EngineConfig config) {
        return open(config, null);
    }

    /**
     * Opens the register and the store, starts the export workers and the push deliveries, and builds
     * the handlers; with {@code callRecords} (may be null), the call-records service too. The
     * listener settings of {@code config} ({@code address}, {@code runtime}) are not used here: the
     * host's listeners enforce their own request limits.
     */
    public static CadastroEngine open(EngineConfig config, CallRecordsSetup callRecords) {
        return open(config, callRecords, Telemetry.NONE, RequestTelemetry.NONE, AccessLog.off());
    }

    /**
     * {@link #open(EngineConfig, CallRecordsSetup)}, watched: every handler the engine gives is wrapped
     * by {@link Observed} (request counts and latency per route template and status into {@code
     * requests}, rate-limit refusals into {@code telemetry}, one {@code accessLog} line per request), and
     * the ledger and push deliveries report to {@code telemetry}. A servlet host passes the same three to
     * get the server's metrics and log ({@code metrics}, {@code metrics::requestCompleted}).
     *
     * <p>The steps, in order: the adapters ({@link Parts#open}: the register, the store, the files, the
     * providers, the SMS provider), then the engine itself (the use cases, the handlers, then the export
     * workers and the housekeeping), then the push deliveries (started last, closed first). A failure
     * closes what was opened, in the order {@link #close()} closes it.
     */
    public static CadastroEngine open(
            EngineConfig config,
            CallRecordsSetup callRecords,
            Telemetry telemetry,
            RequestTelemetry requests,
            AccessLog accessLog) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(accessLog, "accessLog");
        Parts parts = new Parts();
        CadastroEngine engine = null;
        try {
            parts.open(config, telemetry);
            engine = new CadastroEngine(config, parts, callRecords, telemetry, requests, accessLog);
            engine.push = startPush(config, engine.calls, parts.store, telemetry);
            return engine;
        } catch (RuntimeException e) {
            // Each part opened so far is closed once; a failure while closing is added to the
            // original failure, which surfaces.
            closeEach(e, engine != null ? engine.parts() : parts.closeSteps());
            throw e;
        }
    }

    /** The adapters an engine runs on, opened one step at a time; what is null was not opened. */
    private static final class Parts {
        LuceneRegister register;
        Store store;
        FileStore files;
        ProviderOptions.Providers providers;
        SmsOptions.Sms sms;

        void open(EngineConfig config, Telemetry telemetry) {
            register = openRegister(config);
            store = Store.open(config.database(), config.clock(), telemetry);
            files = config.fileStore().isPresent() ? config.fileStore().get() : openFiles(config);
            providers = config.providers().build(register);
            sms = config.sms().build(config.clock());
        }

        List<Runnable> closeSteps() {
            return parts(null, null, null, null, providers, sms, register, store);
        }
    }

    /**
     * The mailing use case as the server runs it (ZIP files, the cost rules, secure job ids), its files in
     * {@code files} for {@code retention}; {@code jobAdded} runs when a job is added (the server wakes its
     * export workers).
     */
    public static MailingService mailingService(
            LuceneRegister register,
            Store store,
            FileStore files,
            Clock clock,
            java.time.Duration retention,
            Runnable jobAdded) {
        return new MailingService(
                register,
                store.mailingJobs(),
                files,
                ZipLeadFileWriter.standard(),
                new CostRules(clock),
                clock,
                new SecureRandom(),
                retention,
                jobAdded);
    }

    /** Tells the export workers a job was added; before they start, they find it at their first claim. */
    private void nudgeMailingWorkers() {
        WorkerPool<?> workers = mailingWorkers;
        if (workers != null) {
            workers.nudge();
        }
    }

    private WorkerPool<?> startMailingWorkers(EngineConfig config) {
        MailingOptions m = config.mailing();
        return WorkerPool.start(
                "mailing",
                store.mailingJobs(),
                mailing::process,
                owner(),
                clock,
                m.workers(),
                m.lease(),
                m.poll(),
                m.grace());
    }

    private Admission admission(EngineConfig config) {
        return store.admission(config.requestsPerMinute().orElse(Admission.REQUESTS_PER_MINUTE), clock);
    }

    /** Deletes what outlived its retention every {@value #HOUSEKEEPING_EVERY_MINUTES} minutes. */
    private ScheduledExecutorService startHousekeeping() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("cadastro-housekeeping").factory());
        executor.scheduleWithFixedDelay(
                () -> housekeeping(keys, mailing, store.creditReports(), otp, store.personJobs(), clock),
                1,
                HOUSEKEEPING_EVERY_MINUTES,
                TimeUnit.MINUTES);
        return executor;
    }

    /**
     * The call-records service: its API, the recording host as a listener of whole paths sees it and as
     * a mount at the base URL's path sees it, each behind the health endpoints, over keys that sign the
     * cursors and the links ({@link CallsSecrets} unless the setup gives them).
     */
    private CallRecordsPart callRecordsPart(
            EngineConfig config,
            CallRecordsSetup setup,
            FileStore files,
            Telemetry telemetry,
            RequestTelemetry requests,
            AccessLog accessLog) {
        Keyring keys = setup.keys()
                .orElseGet(() -> CallsSecrets.KEYRING.resolve(
                        System.getenv(),
                        config.sms().keysFile().toAbsolutePath().resolveSibling("calls-keys.properties"),
                        true,
                        new SecureRandom()));
        RecordingLinks links = new RecordingLinks(keys, setup.recordingsBaseUrl(), clock, new SecureRandom());
        // With an object store, /audio redirects to a presigned GET on it (CallRecords.audio).
        CallRecords records = new CallRecords(store.calls(), new CallCursors(keys), links, clock, files);
        RecordingHost host = new RecordingHost(links, files);
        String basePath = basePath(setup.recordingsBaseUrl());
        java.util.function.UnaryOperator<Handler> observed =
                h -> Observed.around(h, Service.CALL_RECORDS, telemetry, requests, accessLog);
        // The recording host, given each request as {@code seen} maps it.
        java.util.function.Function<java.util.function.UnaryOperator<Request>, Handler> recordings =
                seen -> Health.around(
                        r -> {
                            // Recording links carry signed tokens in their paths: one fixed label.
                            r.facts().route(RECORDING_ROUTE);
                            return host.handle(seen.apply(r));
                        },
                        this::readinessProblems);
        return new CallRecordsPart(
                observed.apply(Health.around(
                        CallRecordsApi.router(store.callTokens(), records), this::readinessProblems, this::alive)),
                observed.apply(recordings.apply(r -> r)),
                observed.apply(recordings.apply(r -> under(basePath, r))),
                records,
                links,
                files);
    }

    /** The push deliveries (issue 19), with each body's url_gravacao when the call-records service runs. */
    private static PushService startPush(EngineConfig config, CallRecordsPart calls, Store store, Telemetry telemetry) {
        PushOptions push = config.push();
        if (calls != null) {
            // url_gravacao in each body: the same permanent signed link GET /v1/ligacoes/{id} gives.
            push = push.withRecordingUrl(calls.links()::permanent);
        }
        return PushService.start(store, config.clock(), push, owner(), telemetry);
    }

    /**
     * The register over the local index root, or over the cache of a published one that it follows (open
     * at once on the generation the cache holds, else unready until the first download is verified).
     */
    private static LuceneRegister openRegister(EngineConfig config) {
        if (config.following().isPresent()) {
            EngineConfig.IndexFollowing f = config.following().get();
            try {
                return IndexFollower.start(config.index(), f.store(), f.prefix(), f.options(), SearchOptions.defaults())
                        .register();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(
                        "could not open the register cache " + config.index() + ": " + e.getMessage(), e);
            }
        }
        if (!Files.exists(config.index().resolve("CURRENT"))) {
            throw new IllegalStateException("no published register index under " + config.index()
                    + ": load one first (./cadastro load --dump DIR --index " + config.index() + ")");
        }
        return LuceneRegister.open(config.index());
    }

    /** Closes each step in order, each whatever the others did; the failures go into {@code failure}, or the first becomes it. */
    private static RuntimeException closeEach(RuntimeException failure, List<Runnable> steps) {
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        return failure;
    }

    /** The close steps of the parts given (null for one not opened), push first, the store last. */
    private static List<Runnable> parts(
            ScheduledExecutorService housekeeping,
            PushService push,
            WorkerPool<?> workers,
            IdempotentCalls keys,
            ProviderOptions.Providers providers,
            SmsOptions.Sms sms,
            LuceneRegister register,
            Store store) {
        List<Runnable> steps = new ArrayList<>();
        step(steps, housekeeping, ScheduledExecutorService::shutdownNow);
        step(steps, push, PushService::close);
        step(steps, workers, WorkerPool::close);
        step(steps, keys, IdempotentCalls::close);
        step(steps, providers, ProviderOptions.Providers::close);
        step(steps, sms, SmsOptions.Sms::close);
        step(steps, register, LuceneRegister::close);
        step(steps, store, Store::close);
        return steps;
    }

    /** Adds the step that closes {@code part}, when it was opened. */
    private static <T> void step(List<Runnable> steps, T part, Consumer<? super T> close) {
        if (part != null) {
            steps.add(() -> close.accept(part));
        }
    }

    private List<Runnable> parts() {
        return parts(housekeeping, push, mailingWorkers, keys, providers, sms, register, store);
    }

    /** The path of a base URL without its trailing slash; empty for none. */
    private static String basePath(String url) {
        String path = java.net.URI.create(url).getRawPath();
        return path == null ? "" : path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** {@code request} as a listener of whole paths would have received it: {@code prefix} before its path. */
    private static Request under(String prefix, Request request) {
        if (prefix.isEmpty()) {
            return request;
        }
        return Request.of(
                request.method(),
                prefix + request.rawPath(),
                request.rawQuery().isEmpty() ? null : request.rawQuery(),
                request.headers(),
                request.body(),
                request.requestId(),
                request.remote().orElse(null),
                request.limits());
    }

    private static LocalFolderFileStore openFiles(EngineConfig config) {
        try {
            LocalFolderFileStore files = new LocalFolderFileStore(config.files());
            files.removeOrphans(config.clock().instant().minus(Duration.ofHours(1)));
            return files;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(
                    "could not open the files folder " + config.files() + ": " + e.getMessage(), e);
        }
    }

    /** Names this process in job leases: host, process id and a random suffix. */
    static String owner() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ProcessHandle.current().pid() + ":"
                + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    private static void housekeeping(
            IdempotentCalls keys,
            MailingService mailing,
            CreditReportCache reports,
            OtpService otp,
            PersonJobs personJobs,
            Clock clock) {
        // Each task alone: one that fails is logged and retried at the next pass, the others still run.
        housekeep("purging idempotency keys", "forgot {0} idempotency keys past their retention", keys::purge);
        housekeep(
                "removing expired export files",
                "removed {0} export files past their retention",
                mailing::removeExpiredFiles);
        // Files of uploads whose job never named them (its completion failed); one server of the fleet.
        housekeep("removing orphaned export files", mailing::removeOrphanFiles);
        // Personal data: a cached report is deleted as soon as no rule can serve it.
        housekeep(
                "purging cached credit reports",
                "forgot {0} cached credit reports past their term",
                () -> reports.purgeFetchedBefore(clock.instant().minus(CreditReportService.CACHE_TERM)));
        // A server that stopped between an SMS hold and the provider's answer: release the hold.
        housekeep("releasing stuck SMS holds", otp::releaseStuck);
        // Personal data: an unread job's CPF or phone goes once the job expired (24 h).
        housekeep(
                "purging person jobs",
                "forgot {0} person jobs past their term",
                () -> personJobs.purge(clock.instant()));
    }

    /** One housekeeping task that counts what it removed: the count logged at DEBUG with {@code removed}. */
    private static void housekeep(String what, String removed, java.util.function.LongSupplier task) {
        housekeep(what, () -> LOG.log(System.Logger.Level.DEBUG, removed, task.getAsLong()));
    }

    /** One housekeeping task: a failure is logged at WARNING and the task is left to the next pass. */
    private static void housekeep(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, what + " failed; retrying later", e);
        }
    }

    /**
     * The company-data service: its router behind {@code /health/live} and {@code /health/ready}. Mount
     * it where its paths ({@code /v1/...}, {@code /health/...}) are the paths below the mount point.
     */
    public Handler companyData() {
        return companyData;
    }

    /** The company-data router alone, without the health endpoints. */
    public Router companyDataRouter() {
        return companyDataRouter;
    }

    /** The call-records service, when the engine was opened with it. */
    public Optional<CallRecordsPart> callRecords() {
        return Optional.ofNullable(calls);
    }

    public LuceneRegister register() {
        return register;
    }

    public Store store() {
        return store;
    }

    public Clock clock() {
        return clock;
    }

    /** The mailing use case (the engine's workers claim the jobs). */
    public MailingService mailing() {
        return mailing;
    }

    /** The provider ports the use cases call, guards included. */
    public ProviderOptions.Providers providers() {
        return providers;
    }

    /** The SMS provider and code keys (the simulated provider's inbox and fault plan). */
    public SmsOptions.Sms sms() {
        return sms;
    }

    /** The SMS code use case (delivery receipts and housekeeping). */
    public OtpService otp() {
        return otp;
    }

    /**
     * From now on {@code /health/ready} answers 503 {@value #NOT_READY_STOPPING} while everything still
     * serves: call it, wait the load balancer's drain period, stop the listeners, then {@link #close()}.
     */
    public void beginStopping() {
        stopping = true;
    }

    /**
     * What keeps the engine from being ready, as the codes {@code GET /health/ready} lists; empty when
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

    /** The served register's reference month ({@code 2026-11}), for {@code /health/ready}; empty when none. */
    private java.util.Optional<String> dataReference() {
        return register.reference().map(r -> r.wire());
    }

    /**
     * Whether the process can still serve once its dependencies return: false only while the embedded
     * database's supervisor keeps failing to restart it ({@code GET /health/live} then answers 503, so
     * that a process supervisor restarts the whole server). A database that is merely down or frozen
     * makes the server unready, not dead: it serves again by itself when the database answers.
     */
    public boolean alive() {
        return store.embedded().map(EmbeddedDatabase::healthy).orElse(true);
    }

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
     * Stops the background work (housekeeping, push, export workers, idempotency lease renewals, providers,
     * SMS), then closes the
     * register and the store. Each part is closed whatever the others did; the first failure is thrown
     * with the later ones suppressed. Requests still in flight fail: stop the listeners first.
     */
    @Override
    public void close() {
        stopping = true;
        RuntimeException failure = closeEach(null, parts());
        if (failure != null) {
            throw failure;
        }
    }
}
