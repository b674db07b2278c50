package dev.cadastro.core.calls;

import dev.cadastro.core.keys.Keyring;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-use secrets of one purpose ({@code calls-cursor}, {@code calls-recording}) derived from the
 * server keyring, by key id, so that what was signed before a rotation verifies until its key is
 * dropped from the keyring. Derivations are cached; the keyring itself is immutable.
 */
final class SigningKeys {
    private final Keyring keyring;
    private final String purpose;
    private final ConcurrentHashMap<String, SecretKeySpec> derived = new ConcurrentHashMap<>();

    SigningKeys(Keyring keyring, String purpose) {
        this.keyring = Objects.requireNonNull(keyring, "keyring");
        this.purpose = Objects.requireNonNull(purpose, "purpose");
    }

    /** The id of the key new signatures use. */
    String current() {
        return keyring.current();
    }

    /** A MAC keyed with the secret of this key id, or empty when the keyring has no such key. */
    Optional<Mac> mac(String keyId) {
        if (!keyring.has(keyId)) {
            return Optional.empty();
        }
        SecretKeySpec spec = derived.computeIfAbsent(
                keyId, id -> new SecretKeySpec(keyring.derive(id, purpose).secret(), "HmacSHA256"));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(spec);
            return Optional.of(mac);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
        }
    }
}
