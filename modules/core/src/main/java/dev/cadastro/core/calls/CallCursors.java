package dev.cadastro.core.calls;

import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.keys.Keyring;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;

/**
 * The cursor of {@code GET /v1/ligacoes}: opaque, URL-safe, signed, bound to the query.
 *
 * <p>It carries the exact position of the last call a page returned ({@code classifiedAt} in epoch
 * microseconds, the precision the store keeps, and the id), so calls sharing a second or a microsecond
 * are neither skipped nor repeated. It is signed with HMAC-SHA256 under a secret derived from the
 * server keyring for {@value #PURPOSE}, and the signature also covers the integration and {@link
 * CallFilter#canonical()}: a cursor used with other filters or by another integration's token does not
 * verify. The key id travels inside, so a cursor issued before a key rotation keeps working until the
 * old key is dropped from the keyring.
 *
 * <p>The feed ({@code ordem=disponibilidade}) has cursors of the same layout carrying a {@link
 * FeedPosition} ({@code atualizado_em} and the id), signed under another domain string, so a cursor of
 * one order is refused by the other.
 *
 * <p>Layout before base64url (no padding): version {@code 1}, key id length and ASCII key id, the
 * position's microseconds (8 bytes), the id length and ASCII id, then the first {@value #MAC_BYTES}
 * bytes of the MAC. The text must be the canonical encoding of its bytes, so no two texts decode to the
 * same cursor.
 */
public final class CallCursors {
    /** The keyring purpose the cursor secret is derived for. */
    public static final String PURPOSE = "calls-cursor";

    /** The query parameter a cursor travels in, named in every refusal. */
    public static final String PARAMETER = "cursor";

    private static final byte VERSION = 1;

    /** What the MAC of a list cursor starts with (the list's order, newest first by datahistorico). */
    private static final String LIST_DOMAIN = "calls-cursor:v1:";

    /** What the MAC of a feed cursor starts with (ordem=disponibilidade), so the two never verify in the other. */
    private static final String FEED_DOMAIN = "calls-feed:v1:";

    private static final int MAC_BYTES = 16;
    /** Far beyond any real cursor (about 120 characters): refuse big input before decoding it. */
    private static final int MAX_TEXT = 512;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SigningKeys keys;

    public CallCursors(Keyring keyring) {
        this.keys = new SigningKeys(keyring, PURPOSE);
    }

    /** The cursor that resumes the list strictly after {@code last}, for this integration and these filters. */
    public String encode(long integrationId, CallFilter filter, CallPosition last) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(last, "last");
        return encode(LIST_DOMAIN, integrationId, filter, micros(last.classifiedAt()), last.id());
    }

    /**
     * The cursor that resumes the feed ({@code ordem=disponibilidade}) strictly after {@code last}, for this
     * integration and these filters. Signed apart from the list's cursors: neither verifies in the other order.
     */
    public String encodeFeed(long integrationId, CallFilter filter, FeedPosition last) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(last, "last");
        return encode(FEED_DOMAIN, integrationId, filter, micros(last.availableAt()), last.id());
    }

    /**
     * The position a cursor resumes after.
     *
     * @throws CallParameterException naming {@code cursor} when it is malformed, truncated, tampered,
     *     signed with a key the keyring no longer has, or issued for another integration or other filters
     */
    public CallPosition decode(long integrationId, CallFilter filter, String cursor) {
        Decoded d = decode(LIST_DOMAIN, integrationId, filter, cursor, Message.CURSOR_FOREIGN.with());
        return new CallPosition(instant(d.micros()), d.id());
    }

    /**
     * The feed position a feed cursor resumes after.
     *
     * @throws CallParameterException naming {@code cursor} as {@link #decode} does, and for a cursor of the
     *     list's order ({@code datahistorico})
     */
    public FeedPosition decodeFeed(long integrationId, CallFilter filter, String cursor) {
        Decoded d = decode(FEED_DOMAIN, integrationId, filter, cursor, Message.CURSOR_FOREIGN_FEED.with());
        return new FeedPosition(instant(d.micros()), d.id());
    }

    private record Decoded(long micros, String id) {}

    private String encode(String domain, long integrationId, CallFilter filter, long micros, String callId) {
        String keyId = keys.current();
        byte[] kid = keyId.getBytes(StandardCharsets.US_ASCII);
        byte[] id = callId.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer payload = ByteBuffer.allocate(1 + 1 + kid.length + 8 + 1 + id.length);
        payload.put(VERSION).put((byte) kid.length).put(kid);
        payload.putLong(micros);
        payload.put((byte) id.length).put(id);
        byte[] body = payload.array();
        byte[] mac = mac(keys.mac(keyId).orElseThrow(), domain, integrationId, filter, body);
        byte[] all = Arrays.copyOf(body, body.length + MAC_BYTES);
        System.arraycopy(mac, 0, all, body.length, MAC_BYTES);
        return ENCODER.encodeToString(all);
    }

    private Decoded decode(String domain, long integrationId, CallFilter filter, String cursor, LocalizedText foreign) {
        Objects.requireNonNull(filter, "filter");
        if (cursor == null || cursor.isEmpty() || cursor.length() > MAX_TEXT) {
            throw refused(Message.CURSOR_EMPTY_OR_LONG.with());
        }
        byte[] all;
        try {
            all = DECODER.decode(cursor);
        } catch (IllegalArgumentException e) {
            throw refused(Message.CURSOR_NOT_BASE64.with());
        }
        // Base64 ignores the unused low bits of the last character: demand the canonical text.
        if (cursor.indexOf('=') >= 0 || !ENCODER.encodeToString(all).equals(cursor)) {
            throw refused(Message.CURSOR_PADDING.with());
        }
        ByteBuffer in = ByteBuffer.wrap(all);
        try {
            if (in.get() != VERSION) {
                throw refused(Message.CURSOR_VERSION.with());
            }
            byte[] kid = new byte[in.get() & 0xff];
            in.get(kid);
            long micros = in.getLong();
            byte[] id = new byte[in.get() & 0xff];
            in.get(id);
            int bodyLength = in.position();
            if (in.remaining() != MAC_BYTES) {
                throw refused(Message.CURSOR_SIGNATURE_LENGTH.with());
            }
            String keyId = new String(kid, StandardCharsets.US_ASCII);
            Optional<Mac> mac = keys.mac(keyId);
            if (mac.isEmpty()) {
                throw refused(Message.CURSOR_UNKNOWN_KEY.with());
            }
            byte[] expected = Arrays.copyOf(
                    mac(mac.get(), domain, integrationId, filter, Arrays.copyOf(all, bodyLength)), MAC_BYTES);
            byte[] given = Arrays.copyOfRange(all, bodyLength, all.length);
            if (!MessageDigest.isEqual(expected, given)) {
                throw refused(foreign);
            }
            String callId = new String(id, StandardCharsets.US_ASCII);
            if (!CallRecord.validId(callId)) {
                throw refused(Message.CURSOR_CALL_ID.with());
            }
            return new Decoded(micros, callId);
        } catch (java.nio.BufferUnderflowException e) {
            throw refused(Message.CURSOR_TRUNCATED.with());
        }
    }

    private static byte[] mac(Mac mac, String domain, long integrationId, CallFilter filter, byte[] body) {
        mac.update((domain + integrationId + ":").getBytes(StandardCharsets.US_ASCII));
        mac.update(filter.canonical().getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 0);
        return Arrays.copyOf(mac.doFinal(body), MAC_BYTES);
    }

    private static CallParameterException refused(LocalizedText why) {
        return new CallParameterException(PARAMETER, why);
    }

    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
