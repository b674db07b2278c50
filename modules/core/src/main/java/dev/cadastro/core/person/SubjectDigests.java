package dev.cadastro.core.person;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keyed hash that stands for a CPF or phone in the audit trail: HMAC-SHA256 under a server secret
 * with an id, so an auditor holding the secret can find the rows of one person, and a copy of the
 * trail alone cannot be reversed by hashing every CPF. The secret comes from the server's keyring;
 * its id is stored with each row so a rotation leaves older rows searchable with the older key.
 */
public final class SubjectDigests {
    /** The shortest secret accepted: 256 bits. */
    public static final int MIN_SECRET_BYTES = 32;

    private final String keyId;
    private final SecretKeySpec secret;

    public SubjectDigests(String keyId, byte[] secret) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(secret, "secret");
        if (!keyId.matches("[A-Za-z0-9_-]{1,32}")) {
            throw new IllegalArgumentException("audit key id '" + keyId + "' must be 1 to 32 letters, digits, - or _");
        }
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("audit key " + keyId + " has " + secret.length + " bytes; at least "
                    + MIN_SECRET_BYTES + " are required");
        }
        this.keyId = keyId;
        this.secret = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /** A keyed hash and the id of its key. */
    public record Digest(String keyId, byte[] value) {
        public Digest {
            Objects.requireNonNull(keyId, "keyId");
            value = value.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        public String hex() {
            return HexFormat.of().formatHex(value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Digest d && d.keyId.equals(keyId) && java.util.Arrays.equals(d.value, value);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Digest[" + keyId + ":" + hex() + "]";
        }
    }

    public String keyId() {
        return keyId;
    }

    /** The keyed hash of a subject: {@code HMAC(secret, "person:v1:" + kind + ":" + digits)}. */
    public Digest of(Subject subject) {
        return of(subject.kind(), subject.canonical());
    }

    /** The keyed hash of a subject given by kind ({@code CPF}, {@code TELEFONE}) and digits. */
    public Digest of(String kind, String digits) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(secret);
            byte[] value = mac.doFinal(("person:v1:" + kind + ":" + digits).getBytes(StandardCharsets.US_ASCII));
            return new Digest(keyId, value);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
        }
    }

    @Override
    public String toString() {
        return "SubjectDigests[" + keyId + "]";
    }
}
