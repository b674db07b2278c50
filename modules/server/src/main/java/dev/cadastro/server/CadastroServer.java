package dev.cadastro.server;

import dev.cadastro.core.calls.CallIngest;
import dev.cadastro.core.calls.CallIngestLoop;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Health;
import dev.cadastro.http.Observed;
import dev.cadastro.http.RequestTelemetry;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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

    /** Opens the register and the store, starts the export workers, then starts listening. */
    public static CadastroServer start(EngineConfig config) {
        return start(config, null);
    }

    /**
     * {@link #start(EngineConfig)}, plus the call-records service on its own listeners (its API, the recording
     * host) and its ingest loop, over the same store and files, with its own keyring ({@link
     * CallsSecrets}); none when {@code callRecords} is null.
     */
    public static CadastroServer start(EngineConfig config, CallRecordsOptions callRecords) {
        return start(config, callRecords, Observability.off());
    }

    /**
     * {@link #start(EngineConfig, CallRecordsOptions)}, watched as {@code observability} says: with a metrics
     * address, every listener's requests, the ledger and the push deliveries are counted and a
     * management listener serves {@code /metrics} and the health endpoints there; with the access log,
     * every listener writes a line per request to {@link AccessLog#LOGGER}.
     */
    public static CadastroServer start(
            EngineConfig config, CallRecordsOptions callRecords, Observability observability) {
        Objects.requireNonNull(observability, "observability");
        PrometheusTelemetry metrics = observability.metrics().isPresent() ? PrometheusTelemetry.create() : null;
        Telemetry telemetry = metrics != null ? metrics : Telemetry.NONE;
        RequestTelemetry requests = metrics != null ? metrics::requestCompleted : RequestTelemetry.NONE;
        AccessLog accessLog = observability.accessLog() ? AccessLog.toSystemLogger() : AccessLog.off();
        // What the runtimes refuse before any handler runs, counted and logged as the handlers' requests.
        Observed.Refusals callRefusals = Observed.refusals(Service.CALL_RECORDS, requests, accessLog);
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
            engine = CadastroEngine.open(config, setup, telemetry, requests, accessLog);
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
                    Observed.refusals(Service.COMPANY_DATA, requests, accessLog));
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
            PrometheusTelemetry metrics, CadastroEngine engine, InetSocketAddress address, EngineConfig config) {
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

    /**
     * {@link #startCallIngest(List, Duration)} reading {@code firstLookBack} back the first time a source
     * is ingested (the default is a week: right for a real exchange's first day, too much for a simulator).
     */
    public CallIngestLoop startCallIngest(List<CallSource> sources, Duration interval, Duration firstLookBack) {
        return startCallIngest(
                sources,
                interval,
                CallIngest.Options.defaults(CadastroEngine.owner()).withFirstLookBack(firstLookBack));
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
