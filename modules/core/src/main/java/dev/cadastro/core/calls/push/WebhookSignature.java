package dev.cadastro.core.calls.push;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: the sender writes {@code webhook-id}, {@code webhook-timestamp} (Unix
 * seconds) and {@code webhook-signature: v1,<base64 of HMAC-SHA256(key, id + "." + timestamp + "." +
 * body)>}, where the key is the base64-decoded part of the {@code whsec_...} secret after the prefix. A
 * receiver recomputes the HMAC over the raw body it received and compares in constant time; it may
 * list several space-separated signatures (during a secret rotation), any of which may match.
 */
public final class WebhookSignature {
    private static final String PREFIX = "whsec_";

    private WebhookSignature() {}

    /** The HMAC key of a {@code whsec_} secret, validated: the base64 of 24 to 64 bytes. */
    public static byte[] key(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (!secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a signing secret starts with whsec_");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a signing secret is whsec_ and standard base64");
        }
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException(
                    "a signing secret's key is 24 to 64 bytes, got " + key.length + "; use --generate-secret");
        }
        return key;
    }

    /** The {@code webhook-signature} value: {@code v1,} and the base64 HMAC-SHA256 of {@code id.timestamp.body}. */
    public static String sign(String secret, String webhookId, long timestampSeconds, byte[] body) {
        return "v1," + Base64.getEncoder().encodeToString(mac(key(secret), webhookId, timestampSeconds, body));
    }

    /**
     * Whether one of the signatures in {@code signatureHeader} is this secret's signature of the message,
     * and its timestamp within {@code tolerance} of {@code now} (a receiver's check against replays).
     */
    public static boolean verify(
            String secret,
            String webhookId,
            String timestampHeader,
            String signatureHeader,
            byte[] body,
            Instant now,
            Duration tolerance) {
        if (webhookId == null || timestampHeader == null || signatureHeader == null) {
            return false;
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(now.getEpochSecond() - timestamp) > tolerance.toSeconds()) {
            return false;
        }
        byte[] expected = mac(key(secret), webhookId, timestamp, body);
        boolean any = false;
        for (String candidate : signatureHeader.trim().split(" +")) {
            if (!candidate.startsWith("v1,")) {
                continue;
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(candidate.substring(3));
            } catch (IllegalArgumentException e) {
                continue;
            }
            any |= MessageDigest.isEqual(expected, given);
        }
        return any;
    }

    private static byte[] mac(byte[] key, String webhookId, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((webhookId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
