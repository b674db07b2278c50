package dev.cadastro.server;

import dev.cadastro.core.keys.Keyring;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * A keyring of HMAC keys for one purpose (the SMS codes, the call-records service), and where it comes
 * from, in this order:
 *
 * <ol>
 *   <li>the purpose's environment variable ({@link #env()}): {@code id=base64[,id=base64...]}, the first key current
 *       (for deployments whose secrets arrive as environment);
 *   <li>a properties file: {@code current=ID} and one {@code key.ID=base64} per key, 32 bytes or more
 *       each. When the file does not exist and creating is allowed (the demo, and {@code serve} under
 *       its home), it is created with one random 256-bit key, mode 0600 in a 0700 folder.
 * </ol>
 *
 * Rotation: add a {@code key.NEW} line ({@link #add}), set {@code current=NEW} ({@link #makeCurrent}),
 * restart; what was signed before still checks with the key it names until that key's line is dropped.
 * How long to keep an old key is the purpose's to say ({@link OtpSecrets}, {@link CallsSecrets}). Errors
 * name the file, the variable or the key id, never a secret.
 *
 * @param label what the keys are for, in messages ("SMS code", "call-records")
 * @param env the environment variable that, when set, holds the keys
 */
public record KeyringFile(String label, String env) {
    public KeyringFile {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(env, "env");
    }

    /** The keys from the environment when {@link #env()} is set, else from the file (created if allowed). */
    public Keyring resolve(Map<String, String> environment, Path file, boolean create, SecureRandom random) {
        String spec = environment.get(env);
        if (spec != null && !spec.isBlank()) {
            return parse(spec);
        }
        if (!Files.exists(file)) {
            if (!create) {
                throw new IllegalStateException("no " + label + " keys: set " + env + " or create " + file);
            }
            return create(file, random);
        }
        return load(file);
    }

    /** Parses {@code id=base64[,id=base64...]}; the first key is current. */
    public Keyring parse(String spec) {
        List<Keyring.Key> keys = new ArrayList<>();
        for (String part : spec.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException(env + ": each key is id=base64, separated by ','");
            }
            keys.add(key(part.substring(0, eq).strip(), part.substring(eq + 1).strip(), env));
        }
        return new Keyring(keys, keys.get(0).id());
    }

    /** Reads a keys file. */
    public Keyring load(Path file) {
        refuseIfOthersCanRead(file);
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("the " + label + " keys file " + file + " could not be read", e);
        }
        List<Keyring.Key> keys = new ArrayList<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("key.")) {
                keys.add(key(name.substring(4), p.getProperty(name).strip(), file.toString()));
            }
        }
        String current = Optional.ofNullable(p.getProperty("current"))
                .map(String::strip)
                .orElseThrow(() -> new IllegalArgumentException(file + " lacks current=ID"));
        return new Keyring(keys, current);
    }

    /**
     * Adds a new random key to the file and makes it current (rotation in one step); the file is replaced
     * atomically and stays 0600.
     *
     * @return the new key's id
     */
    public String rotate(Path file, SecureRandom random) {
        String id = add(file, random);
        makeCurrent(file, id);
        return id;
    }

    /**
     * Adds a new random key to the file without making it current: the first step of a rotation across
     * several servers, which then all verify with it before any signs with it.
     *
     * @return the new key's id
     */
    public String add(Path file, SecureRandom random) {
        Keyring before = load(file);
        Properties p = properties(file);
        int n = 1;
        while (before.has("k" + n)) {
            n++;
        }
        String id = "k" + n;
        p.setProperty("key." + id, newSecret(random));
        write(file, p);
        return id;
    }

    /** Makes the key {@code id}, already in the file, the one that signs. */
    public void makeCurrent(Path file, String id) {
        Keyring before = load(file);
        if (!before.has(id)) {
            throw new IllegalArgumentException(file + " has no key " + id + "; add it first");
        }
        Properties p = properties(file);
        p.setProperty("current", id);
        write(file, p);
    }

    private Properties properties(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("the " + label + " keys file " + file + " could not be read", e);
        }
        return p;
    }

    private Keyring create(Path file, SecureRandom random) {
        Properties p = new Properties();
        p.setProperty("current", "k1");
        p.setProperty("key.k1", newSecret(random));
        write(file, p);
        return load(file);
    }

    private String newSecret(SecureRandom random) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }

    private void write(Path file, Properties p) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
            // Created with their modes, never wider for a moment: the file holds the HMAC keys.
            if (!Files.exists(dir)) {
                if (posix) {
                    Files.createDirectories(
                            dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(dir);
                }
            }
            Path tmp = dir.resolve(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            if (posix) {
                Files.createFile(
                        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(tmp);
            }
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(out, "Cadastro " + label + " HMAC keys: current=ID, key.ID=base64 (32+ bytes). Keep secret.");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("the " + label + " keys file " + file + " could not be written", e);
        }
    }

    /** Like ssh with a private key: a keys file the group or others can read is refused, not used. */
    private void refuseIfOthersCanRead(Path file) {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        try {
            var mode = Files.getPosixFilePermissions(file);
            if (mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
                    || mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
                    || mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
                    || mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE)) {
                throw new IllegalStateException(
                        "the " + label + " keys file " + file + " is readable or writable by others ("
                                + PosixFilePermissions.toString(mode) + "); run: chmod 600 " + file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the " + label + " keys file " + file + " could not be read", e);
        }
    }

    private Keyring.Key key(String id, String base64, String where) {
        Objects.requireNonNull(id, "id");
        if (!id.matches("[A-Za-z0-9_-]{1,32}")) {
            throw new IllegalArgumentException(where + ": a key id of " + id.length()
                    + " characters is not 1 to 32 letters, digits, - or _; each key is id=base64 (the id is not"
                    + " shown: it may be a secret written without its id=)");
        }
        if (base64.isEmpty()) {
            throw new IllegalArgumentException(where + ": key " + id + " has no value; each key is id=base64");
        }
        byte[] secret;
        try {
            secret = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": key " + id + " is not valid base64");
        }
        return new Keyring.Key(id, secret);
    }
}
