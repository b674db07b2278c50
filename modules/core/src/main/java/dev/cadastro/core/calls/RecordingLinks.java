package dev.cadastro.core.calls;

import dev.cadastro.core.keys.Keyring;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.crypto.Mac;

/**
 * Signed links to recordings on the recording host, which needs no token ({@code
 * url_gravacao}, 4.3): {@code <base>/<recording key>?k=<key id>[&e=<expiry>&n=<nonce>]&s=<signature>}.
 *
 * <ul>
 *   <li>{@link #permanent}: no expiry; it stops working only when its key is dropped from the keyring
 *       (the contract's "permanent signed direct link");
 *   <li>{@link #temporary}: valid {@link #TEMPORARY_VALIDITY} from now, and newly generated on each
 *       call (a random nonce), as the audio redirect must be.
 * </ul>
 *
 * <p>The signature is HMAC-SHA256 under a secret derived from the server keyring for {@value #PURPOSE}
 * and covers the recording key, the expiry and the nonce; it is compared in constant time. Expiry is
 * checked against the injected clock.
 */
public final class RecordingLinks {
    /** The keyring purpose the link secret is derived for. */
    public static final String PURPOSE = "calls-recording";

    /** How long a temporary link works: 1 hour. */
    public static final Duration TEMPORARY_VALIDITY = Duration.ofHours(1);

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final SigningKeys keys;
    private final String base;
    private final Clock clock;
    private final RandomGenerator random;

    /**
     * @param baseUrl the recording host's public base URL (a CDN's, in production), without a trailing
     *     slash needed; links are {@code baseUrl + "/" + recordingKey + query}
     */
    public RecordingLinks(Keyring keyring, String baseUrl, Clock clock, RandomGenerator random) {
        this.keys = new SigningKeys(keyring, PURPOSE);
        Objects.requireNonNull(baseUrl, "baseUrl");
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        if (!base.startsWith("http://") && !base.startsWith("https://")) {
            throw new IllegalArgumentException(
                    "recording base URL " + baseUrl + " must start with http:// or https://");
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The base URL links start with, without a trailing slash. */
    public String baseUrl() {
        return base;
    }

    /** The permanent link of a call's recording: the metadata's {@code url_gravacao}. */
    public String permanent(CallRecord call) {
        return link(call.recordingKey(), "", "");
    }

    /** A new link valid for one hour from now: the audio endpoint's redirect target. */
    public String temporary(CallRecord call) {
        long expires = clock.instant().plus(TEMPORARY_VALIDITY).getEpochSecond();
        byte[] nonce = new byte[9];
        random.nextBytes(nonce);
        return link(call.recordingKey(), Long.toString(expires), B64.encodeToString(nonce));
    }

    private String link(String recordingKey, String expires, String nonce) {
        String keyId = keys.current();
        String signature = sign(keys.mac(keyId).orElseThrow(), recordingKey, expires, nonce);
        StringBuilder b = new StringBuilder(base.length() + recordingKey.length() + 96);
        b.append(base).append('/').append(recordingKey).append("?k=").append(keyId);
        if (!expires.isEmpty()) {
            b.append("&e=").append(expires).append("&n=").append(nonce);
        }
        return b.append("&s=").append(signature).toString();
    }

    /** What the recording host decides about a request. */
    public enum Verdict {
        /** The signature is good and the link has not expired. */
        VALID,
        /** The signature is good but the link expired. */
        EXPIRED,
        /** A parameter is missing or repeated, the key is unknown, or the signature does not match. */
        INVALID
    }

    /**
     * Checks a request for {@code recordingKey} with the raw query the host received.
     *
     * @param rawQuery the text after {@code ?} (the link's parameters are URL-safe: no decoding needed)
     */
    public Verdict verify(String recordingKey, String rawQuery) {
        if (recordingKey == null || rawQuery == null || rawQuery.length() > 512) {
            return Verdict.INVALID;
        }
        Map<String, String> params = new HashMap<>();
        for (String pair : rawQuery.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || params.put(pair.substring(0, eq), pair.substring(eq + 1)) != null) {
                return Verdict.INVALID;
            }
        }
        String keyId = params.remove("k");
        String signature = params.remove("s");
        String expires = Optional.ofNullable(params.remove("e")).orElse("");
        String nonce = Optional.ofNullable(params.remove("n")).orElse("");
        if (keyId == null || signature == null || !params.isEmpty() || expires.isEmpty() != nonce.isEmpty()) {
            return Verdict.INVALID;
        }
        Optional<Mac> mac = keys.mac(keyId);
        if (mac.isEmpty()) {
            return Verdict.INVALID;
        }
        byte[] expected = sign(mac.get(), recordingKey, expires, nonce).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII))) {
            return Verdict.INVALID;
        }
        if (expires.isEmpty()) {
            return Verdict.VALID;
        }
        long at;
        try {
            at = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            return Verdict.INVALID;
        }
        return clock.instant().isBefore(Instant.ofEpochSecond(at)) ? Verdict.VALID : Verdict.EXPIRED;
    }

    private static String sign(Mac mac, String recordingKey, String expires, String nonce) {
        String text = "calls-recording:v1:" + recordingKey + "\n" + expires + "\n" + nonce;
        return B64.encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    }
}
