package dev.cadastro.server;

import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Health;
import dev.cadastro.http.Observed;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running call-records service of a server: its API on its own listener and the recording host on
 * another, over the server's store and files and the call-records keyring ({@link CallsSecrets}; links
 * and cursors are signed with secrets derived from it, so every instance sharing the keyring verifies
 * them). Closing it stops both.
 */
public final class CallRecordsService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CallRecordsService.class.getName());

    private final JettyRuntime api;
    private final JettyRuntime recordingHost;
    private final CallRecords records;
    private final RecordingLinks links;
    private final FileStore files;

    private CallRecordsService(
            JettyRuntime api, JettyRuntime recordingHost, CallRecords records, RecordingLinks links, FileStore files) {
        this.api = api;
        this.recordingHost = recordingHost;
        this.records = records;
        this.links = links;
        this.files = files;
    }

    /**
     * The recording host's listener, started before the engine opens (the links' default base URL names
     * its port), answering {@code /health/ready} with {@value CadastroEngine#NOT_READY_STARTING} and
     * anything else with 503 until {@link #start} gives it the engine's handler.
     */
    static final class Recordings implements AutoCloseable {
        private final JettyRuntime runtime;
        private final AtomicReference<Handler> handler;
        private final String baseUrl;

        private Recordings(JettyRuntime runtime, AtomicReference<Handler> handler, String baseUrl) {
            this.runtime = runtime;
            this.handler = handler;
            this.baseUrl = baseUrl;
        }

        String baseUrl() {
            return baseUrl;
        }

        @Override
        public void close() {
            runtime.close();
        }
    }

    static Recordings listenRecordings(CallRecordsOptions options, RuntimeOptions runtime, Observed.Refusals refusals)
            throws IOException {
        AtomicReference<Handler> host = new AtomicReference<>();
        Handler starting = Health.around(
                r -> dev.cadastro.http.Response.of(
                        503, "text/plain; charset=utf-8", "starting".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                () -> java.util.List.of(CadastroEngine.NOT_READY_STARTING));
        JettyRuntime recordings = JettyRuntime.start(
                options.recordings(),
                r -> {
                    Handler h = host.get();
                    return (h == null ? starting : h).handle(r);
                },
                Service.CALL_RECORDS,
                runtime,
                refusals);
        String base = options.recordingsBaseUrl()
                .orElse("http://" + recordingsHostFor(options.calls(), recordings.address()) + ":" + recordings.port());
        return new Recordings(recordings, host, base);
    }

    /** Gives the recording host its handler, then starts the API's listener. */
    static CallRecordsService start(
            CallRecordsOptions options,
            Recordings recordings,
            CadastroEngine.CallRecordsPart part,
            RuntimeOptions runtime,
            Observed.Refusals refusals)
            throws IOException {
        recordings.handler.set(part.recordingHost());
        JettyRuntime apiRuntime =
                JettyRuntime.start(options.calls(), part.api(), Service.CALL_RECORDS, runtime, refusals);
        LOG.log(
                System.Logger.Level.INFO,
                "call-records service on {0}, recordings on {1} (links at {2})",
                apiRuntime.address(),
                recordings.runtime.address(),
                recordings.baseUrl);
        return new CallRecordsService(apiRuntime, recordings.runtime, part.records(), part.links(), part.files());
    }

    /**
     * The host of a URL to a listener on {@code address}: {@code localhost} for the wildcard address,
     * an IPv6 literal in brackets ({@code [::1]}).
     */
    public static String hostFor(InetSocketAddress address) {
        String host = address.getAddress() != null && address.getAddress().isAnyLocalAddress()
                ? "localhost"
                : address.getHostString();
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * The recording host's name in its default links: on this machine (loopback or wildcard), another
     * name than the API's ({@code localhost} beside {@code 127.0.0.1}, and the reverse), so that a
     * client following the audio redirect sees a different host and drops {@code Authorization} (curl
     * before 7.83 dropped it on a host change only, not on a port change).
     */
    static String recordingsHostFor(InetSocketAddress api, InetSocketAddress recordings) {
        String host = hostFor(recordings);
        boolean local = recordings.getAddress() != null
                && (recordings.getAddress().isLoopbackAddress()
                        || recordings.getAddress().isAnyLocalAddress());
        if (!local) {
            return host;
        }
        return hostFor(api).equals("localhost") ? "127.0.0.1" : "localhost";
    }

    /** The call-records API's address. */
    public InetSocketAddress address() {
        return api.address();
    }

    public int port() {
        return api.port();
    }

    /** The recording host's address (links may point elsewhere: see {@link #recordingsBaseUrl()}). */
    public InetSocketAddress recordingsAddress() {
        return recordingHost.address();
    }

    /** The base URL the signed recording links start with. */
    public String recordingsBaseUrl() {
        return links.baseUrl();
    }

    /** The read side's use case (list, one call, audio link). */
    public CallRecords records() {
        return records;
    }

    /** Where the recordings are: the store a call source writes WAV files to before it reports them archived. */
    public FileStore recordings() {
        return files;
    }

    @Override
    public void close() {
        try {
            api.close();
        } finally {
            recordingHost.close();
        }
    }

    /** The recording links this service signs, for the push bodies' {@code url_gravacao}. */
    public RecordingLinks links() {
        return links;
    }
}
