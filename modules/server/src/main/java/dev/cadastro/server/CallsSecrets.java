package dev.cadastro.server;

import java.nio.file.Path;

/**
 * The HMAC keys of the call-records service: they sign its list cursors and its recording links
 * ({@code url_gravacao}, the audio redirects, the push bodies). A {@link KeyringFile} read from {@value
 * #ENV}, else from {@code <home>/secrets/calls-keys.properties} (created 0600 on first start when
 * allowed), apart from the SMS code keys so that rotating one never breaks the other.
 *
 * <p>Dropping a key breaks what it signed: every permanent recording link a client stored that names
 * it (they answer 403 and the client must read the call again for a new link) and every cursor in
 * flight that names it (400; the walk restarts from its last {@code datahistorico}). Keep old keys as
 * long as stored links should keep working; links are permanent by design, so usually for good.
 *
 * <p>Several servers: add the new key to every server's keyring and restart them all (they verify with
 * it, still sign with the old one), then make it current and restart again; never make it current on
 * one server before all of them hold it.
 */
public final class CallsSecrets {
    /** The environment variable that, when set, holds the keys. */
    public static final String ENV = "CADASTRO_CALLS_KEYS";

    /** The call-records keyring's sources. */
    public static final KeyringFile KEYRING = new KeyringFile("call-records", ENV);

    private CallsSecrets() {}

    /** The keys file under a home: {@code <home>/secrets/calls-keys.properties}. */
    public static Path fileUnder(Path home) {
        return home.toAbsolutePath().resolve("secrets").resolve("calls-keys.properties");
    }
}
