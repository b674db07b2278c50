package dev.cadastro.core.keys;

import dev.cadastro.core.sms.OtpCode;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server's signing keys, each a secret under an id: they key the SMS codes' HMAC-SHA256, and,
 * derived per purpose ({@link #derive}), the call-records cursors, the recording links and the person
 * audit trail's subject hashes. New values use the {@link #current()} key; a check uses the key whose id
 * was stored with the value, so adding a key and making it current (rotation) leaves the values in
 * flight checkable until the old key is dropped.
 *
 * <p>A code's MAC binds it to its dispatch: {@code HMAC(key, "otp:v1:" + dispatchId + ":" + code)}, so
 * a MAC copied to another dispatch never matches. {@link #toString()} names the ids only. Formerly
 * {@code OtpKeyring}; the key files and their format are unchanged (docs/adr/0045-engine-wiring.md).
 */
public final class Keyring {
    /** The shortest secret accepted: 256 bits. */
    public static final int MIN_SECRET_BYTES = 32;

    private final Map<String, byte[]> secrets;
    private final String current;

    /**
     * @param keys the keys in any order
     * @param current the id of the key new codes use
     * @throws IllegalArgumentException when an id repeats or is not a short word, a secret is shorter
     *     than {@link #MIN_SECRET_BYTES}, or {@code current} is not among the keys
     */
    public Keyring(List<Key> keys, String current) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(current, "current");
        Map<String, byte[]> map = new LinkedHashMap<>();
        for (Key key : keys) {
            if (map.put(key.id(), key.secret()) != null) {
                throw new IllegalArgumentException("OTP key id " + key.id() + " appears twice");
            }
        }
        if (!map.containsKey(current)) {
            throw new IllegalArgumentException(
                    "the current OTP key id " + current + " is not among the keys " + map.keySet());
        }
        this.secrets = Map.copyOf(map);
        this.current = current;
    }

    /** One key: an id of 1 to 32 letters, digits, {@code -} or {@code _}, and a secret of 32 bytes or more. */
    public record Key(String id, byte[] secret) {
        public Key {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(secret, "secret");
            if (!id.matches("[A-Za-z0-9_-]{1,32}")) {
                // Never echo the id: a key pasted without its "id=" would put the secret in the message.
                throw new IllegalArgumentException("an OTP key id of " + id.length()
                        + " characters is not 1 to 32 letters, digits, - or _ (the id is not shown: it may be a"
                        + " secret written without its id=)");
            }
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("OTP key " + id + " has " + secret.length + " bytes; at least "
                        + MIN_SECRET_BYTES + " are required");
            }
            secret = secret.clone();
        }

        @Override
        public byte[] secret() {
            return secret.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.id.equals(id) && MessageDigest.isEqual(k.secret, secret);
        }

        @Override
        public int hashCode() {
            return id.hashCode();
        }

        @Override
        public String toString() {
            return "Key[" + id + "]";
        }
    }

    /** The id of the key new codes use. */
    public String current() {
        return current;
    }

    /** Whether a key of this id is present (a dispatch keyed with a dropped key can no longer be checked). */
    public boolean has(String keyId) {
        return secrets.containsKey(keyId);
    }

    /**
     * A secret for another use, derived from the current key: {@code HMAC(key, "derive:v1:" + purpose)},
     * under the current key's id. Other keyed hashes (the person audit trail's) thus share this keyring's
     * storage and rotation without ever using a code key itself.
     *
     * @param purpose a short word naming the use, e.g. {@code person-audit}
     */
    public Derived derive(String purpose) {
        return derive(current, purpose);
    }

    /** {@link #derive(String)} under a given key id (to match values made before a rotation). */
    public Derived derive(String keyId, String purpose) {
        Objects.requireNonNull(purpose, "purpose");
        return new Derived(keyId, hmac(keyId, "derive:v1:" + purpose));
    }

    /** A derived secret and the id of the key it came from; {@link #toString()} names the id only. */
    public record Derived(String keyId, byte[] secret) {
        public Derived {
            Objects.requireNonNull(keyId, "keyId");
            secret = secret.clone();
        }

        @Override
        public byte[] secret() {
            return secret.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Derived d && d.keyId.equals(keyId) && MessageDigest.isEqual(d.secret, secret);
        }

        @Override
        public int hashCode() {
            return keyId.hashCode();
        }

        @Override
        public String toString() {
            return "Derived[" + keyId + "]";
        }
    }

    /** The MAC of a code for a dispatch under a key. */
    public byte[] mac(String keyId, String dispatchId, OtpCode code) {
        return hmac(keyId, "otp:v1:" + dispatchId + ":" + code.reveal());
    }

    /** HMAC-SHA256 of the ASCII message under the key of this id. */
    private byte[] hmac(String keyId, String message) {
        byte[] secret = secrets.get(keyId);
        if (secret == null) {
            throw new IllegalArgumentException("no OTP key with id " + keyId);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
        }
    }

    /**
     * The MAC of a typed code for a dispatch under every key, by key id: what a store compares with the
     * stored MAC under the dispatch's own key, without reading that MAC out (see {@link OtpStore#check}).
     */
    public Map<String, byte[]> macs(String dispatchId, OtpCode typed) {
        Map<String, byte[]> macs = new LinkedHashMap<>();
        for (String keyId : secrets.keySet()) {
            macs.put(keyId, mac(keyId, dispatchId, typed));
        }
        return macs;
    }

    /**
     * Whether a typed code matches the stored MAC, compared in constant time ({@link
     * MessageDigest#isEqual}). A dispatch whose key was dropped never matches.
     */
    public boolean matches(String keyId, String dispatchId, OtpCode typed, byte[] stored) {
        if (!secrets.containsKey(keyId)) {
            return false;
        }
        return MessageDigest.isEqual(mac(keyId, dispatchId, typed), stored);
    }

    @Override
    public String toString() {
        return "Keyring[current=" + current + ", ids=" + secrets.keySet() + "]";
    }
}
