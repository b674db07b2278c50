package dev.cadastro.server;

import dev.cadastro.core.keys.Keyring;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a server's call-records service listens: its API ({@code --calls-port}), the recording host
 * ({@code --recordings-port}), and the base URL the signed recording links start with ({@code
 * --recordings-base-url}: a CDN's in production; by default the recording host's own address), and the
 * keys that sign its cursors and recording links: the host's own, or by default {@link CallsSecrets}
 * ({@value CallsSecrets#ENV}, else {@code secrets/calls-keys.properties} beside the SMS code keys,
 * created on first start). Calls are ingested separately ({@link CadastroServer#startCallIngest}).
 *
 * @param keys the host's keys, or empty to resolve them as above
 */
public record CallRecordsOptions(
        InetSocketAddress calls,
        InetSocketAddress recordings,
        Optional<String> recordingsBaseUrl,
        Optional<Keyring> keys) {

    public CallRecordsOptions {
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(recordings, "recordings");
        Objects.requireNonNull(recordingsBaseUrl, "recordingsBaseUrl");
        Objects.requireNonNull(keys, "keys");
        recordingsBaseUrl.ifPresent(url -> {
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new IllegalArgumentException(
                        "recordings base URL " + url + " must start with http:// or https://");
            }
        });
    }

    /** The API and the recording host on these addresses, links on the host's own address. */
    public static CallRecordsOptions of(InetSocketAddress calls, InetSocketAddress recordings) {
        return new CallRecordsOptions(calls, recordings, Optional.empty(), Optional.empty());
    }

    public CallRecordsOptions withRecordingsBaseUrl(String url) {
        return new CallRecordsOptions(calls, recordings, Optional.of(url), keys);
    }

    /** Signs cursors and links with these keys instead of resolving {@link CallsSecrets}. */
    public CallRecordsOptions withKeys(Keyring keys) {
        return new CallRecordsOptions(calls, recordings, recordingsBaseUrl, Optional.of(keys));
    }
}
