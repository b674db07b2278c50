package dev.cadastro.server;

import dev.cadastro.core.person.SubjectDigests;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;

/**
 * The secret of the person audit trail's keyed hash ({@link SubjectDigests}), with its key id: from the
 * environment variable {@value #ENV} ({@code id=base64}), else from a properties file ({@code
 * current=ID}, {@code key.ID=base64}) created with a random 256-bit key, mode 0600, when missing.
 *
 * <p>Interim: the SMS codes' keyring (issue 17) reads the same kind of file; once it is on main this
 * class becomes a lookup of the {@code person-audit} key in that keyring (docs/adr/0024).
 */
public final class PersonAuditKey {
    /** The environment variable that, when set, holds the key as {@code id=base64}. */
    public static final String ENV = "CADASTRO_PERSON_AUDIT_KEY";

    private static final SubjectDigests EPHEMERAL = random(new SecureRandom(), "ephemeral");

    private PersonAuditKey() {}

    /** The key from the environment when set, else from the file (created when missing). */
    public static SubjectDigests resolve(Map<String, String> env, Path file, SecureRandom random) {
        String spec = env.get(ENV);
        if (spec != null && !spec.isBlank()) {
            int eq = spec.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException(ENV + " must be id=base64");
            }
            return new SubjectDigests(
                    spec.substring(0, eq).strip(), decode(spec.substring(eq + 1).strip(), ENV));
        }
        try {
            if (!Files.exists(file)) {
                create(file, random);
            }
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            String current = p.getProperty("current");
            if (current == null || p.getProperty("key." + current.strip()) == null) {
                throw new IllegalArgumentException(file + " must hold current=ID and key.ID=base64");
            }
            return new SubjectDigests(
                    current.strip(), decode(p.getProperty("key." + current.strip()), file.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("the person audit key file " + file + " could not be read", e);
        }
    }

    /**
     * A key made at random for this process: for routers that hosts and tests build without a
     * configured key. Hashes made with it cannot be matched after a restart.
     */
    public static SubjectDigests ephemeral() {
        return EPHEMERAL;
    }

    private static SubjectDigests random(SecureRandom random, String id) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        return new SubjectDigests(id, secret);
    }

    private static void create(Path file, SecureRandom random) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the folder's own protection applies.
        }
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            out.write(
                    "# The person audit trail's HMAC key. Keep it secret; losing it makes the hashes unsearchable.\n");
            out.write("current=a1\n");
            out.write("key.a1=" + Base64.getEncoder().encodeToString(secret) + "\n");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static byte[] decode(String base64, String where) {
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": the audit key is not valid base64");
        }
    }
}
