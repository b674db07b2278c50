package dev.cadastro.server;

import dev.cadastro.core.calls.CallCursors;
import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.sms.OtpKeyring;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Health;
import dev.cadastro.http.Observed;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.http.callrecords.RecordingHost;
import dev.cadastro.http.jdk.JdkHttpServerRuntime;
import dev.cadastro.http.jdk.RuntimeOptions;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running call-records service of a server: its API on its own listener and the recording host on
 * another, over the server's store and files and the call-records keyring ({@link CallsSecrets}; links
 * and cursors are signed with secrets derived from it, so every instance sharing the keyring verifies
 * them). Closing it stops both.
 */
public final class CallRecordsService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CallRecordsService.class.getName());

    /** The route label of every request to the recording host. */
    static final String RECORDING_ROUTE = "/gravacoes/{link}";

    private final JdkHttpServerRuntime api;
    private final JdkHttpServerRuntime recordingHost;
    private final CallRecords records;
    private final RecordingLinks links;
    private final FileStore files;

    private CallRecordsService(
            JdkHttpServerRuntime api,
            JdkHttpServerRuntime recordingHost,
            CallRecords records,
            RecordingLinks links,
            FileStore files) {
        this.api = api;
        this.recordingHost = recordingHost;
        this.records = records;
        this.links = links;
        this.files = files;
    }

    /** Starts the recording host, then the API. */
    static CallRecordsService start(
            CallRecordsOptions options,
            Store store,
            FileStore files,
            OtpKeyring keys,
            Clock clock,
            RuntimeOptions runtime,
            java.util.function.Supplier<java.util.List<String>> readiness,
            Telemetry telemetry,
            AccessLog accessLog)
            throws IOException {
        // The host's port is known once it listens, and its base URL may depend on it.
        AtomicReference<Handler> host = new AtomicReference<>();
        JdkHttpServerRuntime recordings = JdkHttpServerRuntime.start(
                options.recordings(),
                Observed.around(
                        Health.around(
                                r -> {
                                    // Recording links carry signed tokens in their paths: one fixed label.
                                    r.facts().route(RECORDING_ROUTE);
                                    return host.get().handle(r);
                                },
                                readiness),
                        Service.CALL_RECORDS,
                        telemetry,
                        accessLog),
                Service.CALL_RECORDS,
                runtime);
        JdkHttpServerRuntime apiRuntime = null;
        try {
            String base = options.recordingsBaseUrl()
                    .orElse("http://" + recordingsHostFor(options.calls(), recordings.address()) + ":"
                            + recordings.port());
            RecordingLinks links = new RecordingLinks(keys, base, clock, new SecureRandom());
            host.set(new RecordingHost(links, files));
            CallRecords records = new CallRecords(store.calls(), new CallCursors(keys), links, clock);
            apiRuntime = JdkHttpServerRuntime.start(
                    options.calls(),
                    Observed.around(
                            Health.around(CallRecordsApi.router(store.callTokens(), records), readiness),
                            Service.CALL_RECORDS,
                            telemetry,
                            accessLog),
                    Service.CALL_RECORDS,
                    runtime);
            LOG.log(
                    System.Logger.Level.INFO,
                    "call-records service on {0}, recordings on {1} (links at {2})",
                    apiRuntime.address(),
                    recordings.address(),
                    base);
            return new CallRecordsService(apiRuntime, recordings, records, links, files);
        } catch (IOException | RuntimeException e) {
            if (apiRuntime != null) {
                apiRuntime.close();
            }
            recordings.close();
            throw e;
        }
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
