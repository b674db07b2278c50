package dev.cadastro.server;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a server's call-records service listens: its API ({@code --calls-port}), the recording host
 * ({@code --recordings-port}), and the base URL the signed recording links start with ({@code
 * --recordings-base-url}: a CDN's in production; by default the recording host's own address). Calls
 * are ingested separately ({@link CadastroServer#startCallIngest}).
 */
public record CallRecordsOptions(
        InetSocketAddress calls, InetSocketAddress recordings, Optional<String> recordingsBaseUrl) {

    public CallRecordsOptions {
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(recordings, "recordings");
        Objects.requireNonNull(recordingsBaseUrl, "recordingsBaseUrl");
        recordingsBaseUrl.ifPresent(url -> {
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new IllegalArgumentException(
                        "recordings base URL " + url + " must start with http:// or https://");
            }
        });
    }

    /** The API and the recording host on these addresses, links on the host's own address. */
    public static CallRecordsOptions of(InetSocketAddress calls, InetSocketAddress recordings) {
        return new CallRecordsOptions(calls, recordings, Optional.empty());
    }

    public CallRecordsOptions withRecordingsBaseUrl(String url) {
        return new CallRecordsOptions(calls, recordings, Optional.of(url));
    }
}
