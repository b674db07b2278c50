package dev.cadastro.server.cli;

import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.server.MailingOptions;
import dev.cadastro.store.Database;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./cadastro serve}: serves the company-data API over a published index until stopped. */
@Command(
        name = "serve",
        description = {
            "Serve the company-data API over a published register index until stopped (Ctrl-C).",
            "The store is the PostgreSQL at --database, or an embedded one kept in --embedded-db;"
                    + " its schema is migrated at start."
        })
public final class ServeCommand extends CliCommand {
    static final int DEFAULT_PORT = 8080;

    @Option(
            names = "--index",
            paramLabel = "DIR",
            required = true,
            description = "The register index to serve: its folder; with --index-cache, where load --publish"
                    + " published it (s3://BUCKET[/PREFIX] or a folder), followed into the cache.")
    String index;

    @Option(
            names = "--index-cache",
            paramLabel = "DIR",
            description = "Follow the register published at --index: download its current generation into DIR"
                    + " (parallel ranged reads, every part's CRC32C verified, an interrupted download resumed), serve"
                    + " it, and swap in each newer one; /health/ready answers 503 until the first is open.")
    String indexCache;

    @Option(
            names = "--index-poll",
            paramLabel = "DURATION",
            description = "With --index-cache: how often the published pointer is read, 1s to 24h (default 1m).")
    String indexPoll;

    @Option(
            names = "--database",
            paramLabel = "URL",
            description = "A PostgreSQL JDBC URL, jdbc:postgresql://host:5432/db?user=u&password=p.")
    String database;

    @Option(
            names = "--embedded-db",
            paramLabel = "DIR",
            description = "Folder of the embedded PostgreSQL when --database is not given (default ${DEFAULT-VALUE}).",
            defaultValue = ".cadastro/db")
    String embeddedDb;

    @Mixin
    ListenFlags listen = new ListenFlags("0.0.0.0");

    @Option(
            names = "--drain-seconds",
            paramLabel = "S",
            defaultValue = "5",
            description = "On stop (SIGTERM), answer /health/ready with 503 for S seconds while still serving,"
                    + " then stop accepting (default ${DEFAULT-VALUE}; 0 stops at once).")
    long drainSeconds;

    @Option(
            names = "--admission-group-commit",
            arity = "0..1",
            paramLabel = "true|false",
            defaultValue = "true",
            fallbackValue = "true",
            description = "Admit requests (key read and rate-limit count) in shared commits, on several queues"
                    + " (ADR 0031; default ${DEFAULT-VALUE}); false admits each request alone.")
    boolean admissionGroupCommit;

    @Option(
            names = "--admission-queues",
            paramLabel = "N",
            defaultValue = "0",
            description = "Queues (each with its own worker and connection) admitting requests in shared commits"
                    + " (default ${DEFAULT-VALUE}: half the pool the charge workers leave).")
    long admissionQueues;

    @Option(
            names = "--requests-per-minute",
            paramLabel = "N",
            defaultValue = "" + Admission.REQUESTS_PER_MINUTE,
            description = "Requests per minute allowed to each API key (default ${DEFAULT-VALUE}, the contract's).")
    long requestsPerMinute;

    @Option(
            names = "--files",
            paramLabel = "DIR|s3://BUCKET[/PREFIX]",
            defaultValue = ".cadastro/files",
            description = "Where mailing export files and call recordings are kept: a folder (default"
                    + " ${DEFAULT-VALUE}) or a bucket of an S3-compatible object store; servers sharing a"
                    + " database must share it.")
    String files;

    @Mixin
    ObjectStoreFlags objectStore;

    @Option(
            names = "--mailing-workers",
            paramLabel = "N",
            defaultValue = "2",
            description = "Mailing exports this server runs at once (default ${DEFAULT-VALUE}).")
    int mailingWorkers;

    @Option(
            names = "--export-retention-days",
            paramLabel = "D",
            defaultValue = "7",
            description = "Days an export's file stays downloadable (default ${DEFAULT-VALUE}).")
    int retentionDays;

    @Mixin
    ProviderFlags providers;

    @Option(
            names = "--sms-dir",
            paramLabel = "DIR",
            defaultValue = ".cadastro",
            description = "Folder of the simulated SMS provider's inbox (sms-inbox.tsv, read by admin sms-inbox)"
                    + " and of the SMS code keys (secrets/otp-keys.properties, created 0600 on first start unless"
                    + " CADASTRO_OTP_KEYS is set), and of the call-records keys with --calls-port"
                    + " (secrets/calls-keys.properties, unless CADASTRO_CALLS_KEYS is set) (default ${DEFAULT-VALUE}).")
    String smsDir;

    @Mixin
    CallsFlags calls;

    @Mixin
    PushFlags push;

    @Mixin
    ObserveFlags observe;

    @Mixin
    EdgeFlags edge;

    @Option(
            names = "--simulated-exchange",
            paramLabel = "NAME",
            description = "With --calls-port: ingest the calls of a simulated telephone exchange into the integration"
                    + " NAME (created when absent), every --calls-refresh; its first pass reads the last two hours."
                    + " Without it, calls come from ./cadastro calls import.")
    String simulatedExchange;

    @Override
    public Integer call() throws Exception {
        if (simulatedExchange != null && !calls.callsPortGiven()) {
            throw usage("--simulated-exchange needs --calls-port");
        }
        if (simulatedExchange != null && !dev.cadastro.core.calls.Integration.validName(simulatedExchange)) {
            throw usage("--simulated-exchange " + simulatedExchange
                    + " must be 1 to 63 lower-case letters, digits, - or _, starting with a letter or digit");
        }
        if (database != null && spec.commandLine().getParseResult().hasMatchedOption("--embedded-db")) {
            throw usage("give --database URL or --embedded-db DIR, not both");
        }
        EngineConfig.IndexFollowing following = following();
        Path indexDir = following != null ? path("--index-cache", indexCache) : path("--index", index);
        Database store = databaseOf(
                database != null
                        ? Database.builder().url(database)
                        : Database.builder().embedded(path("--embedded-db", embeddedDb)));
        InetSocketAddress address = new InetSocketAddress(listen.bind, (int) within("--port", listen.port, 0, 65535));
        long perMinute = within("--requests-per-minute", requestsPerMinute, 1, Long.MAX_VALUE);
        RuntimeOptions runtime = edge.options(
                java.time.Duration.ofSeconds(within("--drain-seconds", drainSeconds, 0, 3600)), this::usage);
        MailingOptions mailing = MailingOptions.defaults()
                .withWorkers((int) within("--mailing-workers", mailingWorkers, 1, 64))
                .withRetention(java.time.Duration.ofDays(within("--export-retention-days", retentionDays, 1, 3650)));
        dev.cadastro.server.CallRecordsOptions callOptions =
                calls.callsPortGiven() ? calls.options(listen.bind, 0, this::usage) : null;
        java.time.Duration refresh =
                calls.refresh(dev.cadastro.core.calls.CallIngestLoop.DEFAULT_INTERVAL, this::usage);
        dev.cadastro.server.Observability observability = observe.options(null, this::usage);
        EngineConfig.Builder config = EngineConfig.builder(indexDir, store)
                .address(address)
                .runtime(runtime)
                .requestsPerMinute(perMinute)
                .clock(Clock.systemUTC())
                .providers(providers.options(this::usage))
                .sms(providers.sms(path("--sms-dir", smsDir), this::usage))
                .push(push.options(this::usage))
                .following(following)
                .mailing(mailing);
        // --s3-endpoint and --s3-region may serve --index s3://... alone, with the files in a folder.
        Optional<S3FileStore> bucket =
                following != null && PublishedRegister.isObjectStore(index) && !PublishedRegister.isObjectStore(files)
                        ? Optional.empty()
                        : objectStore.fileStore("--files", files, this::usage);
        if (bucket.isPresent()) {
            config.fileStore(bucket.get());
        } else {
            config.files(path("--files", files));
        }
        CadastroServer server;
        try {
            server = CadastroServer.start(config.build(), callOptions, observability);
        } catch (RuntimeException e) {
            bucket.ifPresent(S3FileStore::close);
            throw e;
        }
        if (following != null) {
            out().println("cadastro: following the register published at " + index + " into " + indexCache
                    + " (pointer read every " + (indexPoll == null ? "1m" : indexPoll)
                    + "); /health/ready answers 503 until its first generation is open");
        }
        out().println("cadastro: serving the company-data API on http://" + hostFor(address) + ":" + server.port()
                + "/v1 (OpenAPI at /v1/openapi.json); Ctrl-C stops");
        if (simulatedExchange != null) {
            dev.cadastro.server.CallRecordsService c = server.calls().orElseThrow();
            server.startCallIngest(
                    java.util.List.of(dev.cadastro.server.DemoSetup.simulatedExchange(
                            server.store(), simulatedExchange, c.recordings())),
                    refresh,
                    dev.cadastro.server.DemoSetup.SIMULATED_LOOK_BACK);
        }
        server.calls()
                .ifPresent(c -> out().println("cadastro: serving the call-records API on http://"
                        + hostFor(c.address()) + ":" + c.port() + "/v1/ligacoes (OpenAPI at /v1/openapi.json),"
                        + " recordings at " + c.recordingsBaseUrl()));
        ListenerUrls.print(out(), server);
        out().flush();
        awaitShutdown(() -> {
            try (server) {
                // The store outlives the server's last upload.
            } finally {
                bucket.ifPresent(S3FileStore::close);
            }
        });
        return Cli.DONE;
    }

    /** What {@code --index} with {@code --index-cache} follows; null for a local index root. */
    private EngineConfig.IndexFollowing following() {
        if (indexCache == null) {
            if (PublishedRegister.isObjectStore(index)) {
                throw usage("--index " + index + " needs --index-cache DIR, the local folder it is downloaded into");
            }
            if (indexPoll != null) {
                throw usage("--index-poll needs --index-cache DIR (it says how often a published register is read)");
            }
            return null;
        }
        path("--index-cache", indexCache);
        Duration poll = indexPoll == null
                ? FollowOptions.DEFAULT_POLL
                : CallsFlags.duration("--index-poll", indexPoll, this::usage);
        if (poll.compareTo(Duration.ofHours(24)) > 0) {
            throw usage("--index-poll " + indexPoll + " must be at most 24h");
        }
        // Open for the life of the process, as the --files bucket.
        PublishedRegister published = PublishedRegister.open("--index", index, objectStore, this::usage);
        return new EngineConfig.IndexFollowing(
                published.store(), published.prefix(), FollowOptions.defaults().withPoll(poll));
    }

    private Database databaseOf(Database.Builder builder) {
        try {
            builder.admissionGroupCommit(admissionGroupCommit);
            if (admissionQueues != 0) {
                builder.admissionQueues((int) within("--admission-queues", admissionQueues, 1, 500));
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw usage("--database: " + e.getMessage());
        }
    }

    static String hostFor(InetSocketAddress address) {
        return dev.cadastro.server.CallRecordsService.hostFor(address);
    }

    /** Blocks until the JVM is asked to stop, then closes the server. */
    static void awaitShutdown(AutoCloseable server) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception e) {
                                System.err.println("cadastro: closing failed: " + Cli.oneLine(e));
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "cadastro-shutdown"));
        stopped.await();
    }
}
