package dev.cadastro.core.calls.push;

import dev.cadastro.core.calls.Integration;
import java.net.URI;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an integration's calls are pushed, as the operator set it (the URL, the header and
 * token the client chose, and what to do with reclassified calls).
 *
 * <p>Validated when built: the URL holds no control character, and the secret, when set, is {@code
 * whsec_} and the base64 of 24 to 64 bytes, as Standard Webhooks writes it. Where the URL points is
 * {@link DestinationPolicy}'s to check. What a header name and value may be is the sending adapter's
 * rule, checked where the operator sets the destination (ADR 0043).
 *
 * @param resendReclassified whether a ready call that is reclassified is delivered again
 * @param signingSecret {@code whsec_...}, or null when deliveries are not signed
 * @param enabled false while the operator paused the destination: its deliveries wait, none is lost
 */
public record PushDestination(
        Integration integration,
        URI url,
        String headerName,
        String headerValue,
        boolean resendReclassified,
        String signingSecret,
        boolean enabled) {

    public PushDestination {
        Objects.requireNonNull(integration, "integration");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(headerName, "headerName");
        Objects.requireNonNull(headerValue, "headerValue");
        if (hasControl(url.toString())) {
            throw new IllegalArgumentException("the URL must not hold control characters");
        }
        if (signingSecret != null) {
            WebhookSignature.key(signingSecret); // validates
        }
    }

    /** The secret, when deliveries are signed. */
    public Optional<String> secret() {
        return Optional.ofNullable(signingSecret);
    }

    public PushDestination paused() {
        return new PushDestination(integration, url, headerName, headerValue, resendReclassified, signingSecret, false);
    }

    /** The header value with all but its first 4 characters masked, for the operator's screen. */
    public String maskedHeaderValue() {
        return mask(headerValue);
    }

    /** The secret masked ({@code whsec_abcd…}), or "none". */
    public String maskedSecret() {
        return signingSecret == null ? "none" : "whsec_" + mask(signingSecret.substring(6));
    }

    private static String mask(String s) {
        return s.length() <= 8 ? "*".repeat(s.length()) : s.substring(0, 4) + "*".repeat(8);
    }

    /** A new random secret in Standard Webhooks form: {@code whsec_} and the base64 of 32 bytes. */
    public static String newSecret(java.util.random.RandomGenerator secure) {
        byte[] key = new byte[32];
        secure.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    @Override
    public String toString() {
        return "PushDestination[" + integration.name() + " -> " + url + ", header " + headerName + ": "
                + maskedHeaderValue() + ", resendReclassified " + resendReclassified + ", secret "
                + maskedSecret() + ", enabled " + enabled + "]";
    }

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
    }
}
