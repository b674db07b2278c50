package dev.cadastro.server;

import dev.cadastro.core.keys.Keyring;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;

/**
 * The HMAC keys of the SMS codes: a {@link KeyringFile} read from {@value #ENV}, else from {@code
 * <home>/secrets/otp-keys.properties} (created 0600 on first start when allowed).
 *
 * <p>Rotation: add a {@code key.NEW} line, set {@code current=NEW}, restart; codes in flight still check
 * with the key named in their dispatch; drop the old line once the longest validity (1 h) has passed.
 * These keys sign nothing of the call-records service, which has its own ({@link CallsSecrets}).
 */
public final class OtpSecrets {
    /** The environment variable that, when set, holds the keys. */
    public static final String ENV = "CADASTRO_OTP_KEYS";

    /** The SMS code keyring's sources. */
    public static final KeyringFile KEYRING = new KeyringFile("SMS code", ENV);

    private OtpSecrets() {}

    /** The keys from the environment when {@value #ENV} is set, else from the file (created if allowed). */
    public static Keyring resolve(Map<String, String> env, Path file, boolean create, SecureRandom random) {
        return KEYRING.resolve(env, file, create, random);
    }

    /** Parses {@code id=base64[,id=base64...]}; the first key is current. */
    public static Keyring parse(String spec) {
        return KEYRING.parse(spec);
    }

    /** Reads a keys file. */
    public static Keyring load(Path file) {
        return KEYRING.load(file);
    }

    /** Adds a new random key to the file and makes it current; returns its id. */
    public static String rotate(Path file, SecureRandom random) {
        return KEYRING.rotate(file, random);
    }
}
