package dev.cadastro.providers;

import dev.cadastro.core.document.Phone;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The phones of the simulated SMS provider: the messages it "delivered", in a file that only the
 * operating-system user running Cadastro can read (0600), so that the server (which writes) and
 * {@code ./cadastro admin sms-inbox} (a separate process, which reads) share it, and no API ever serves
 * it. One line per message, tab-separated: epoch milliseconds, the number (digits), the dispatch
 * reference, the text. When the file passes {@link #ROTATE_BYTES} it becomes {@code <name>.1} (the one
 * before is dropped), so the inbox keeps the latest messages only.
 *
 * <p>This file exists only because the provider is simulated: it plays the part of the phones. A real
 * provider keeps nothing in Cadastro.
 */
public final class SmsInbox {
    /** Past this size the file is rotated. */
    public static final long ROTATE_BYTES = 8L << 20;

    private final Path file;
    private final Path previous;
    private BufferedWriter writer;
    private long size;

    private SmsInbox(Path file) {
        this.file = file;
        this.previous = file.resolveSibling(file.getFileName() + ".1");
    }

    /** The inbox kept in {@code file}, created (0600, its folder 0700) on the first message. */
    public static SmsInbox at(Path file) {
        return new SmsInbox(Objects.requireNonNull(file, "file").toAbsolutePath());
    }

    public Path file() {
        return file;
    }

    /** One message as the phone received it. */
    public record Message(Instant receivedAt, String phone, String reference, String text) {}

    /** Appends a delivered message. Thread-safe within the process; written through the OS cache, not forced. */
    public synchronized void deliver(Instant at, Phone to, String reference, String text) {
        String line = at.toEpochMilli() + "\t" + to.national() + "\t" + clean(reference) + "\t" + clean(text) + "\n";
        try {
            if (writer == null) {
                open();
            }
            if (size >= ROTATE_BYTES) {
                writer.close();
                Files.move(file, previous, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                open();
            }
            writer.write(line);
            writer.flush();
            size += line.getBytes(StandardCharsets.UTF_8).length;
        } catch (IOException e) {
            throw new UncheckedIOException("the simulated SMS inbox " + file + " could not be written", e);
        }
    }

    /** The latest {@code limit} messages to this phone, oldest first. */
    public List<Message> read(Phone phone, int limit) {
        Deque<Message> latest = new ArrayDeque<>();
        String number = phone.national();
        for (Path p : List.of(previous, file)) {
            if (!Files.exists(p)) {
                continue;
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("the simulated SMS inbox " + p + " could not be read", e);
            }
            for (String line : lines) {
                String[] f = line.split("\t", 4);
                if (f.length == 4 && f[1].equals(number)) {
                    latest.addLast(new Message(Instant.ofEpochMilli(Long.parseLong(f[0])), f[1], f[2], f[3]));
                    if (latest.size() > limit) {
                        latest.removeFirst();
                    }
                }
            }
        }
        return new ArrayList<>(latest);
    }

    private void open() throws IOException {
        Path dir = file.getParent();
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.exists(dir)) {
            // Created with its mode, never wider for a moment: the inbox holds codes in clear.
            if (posix) {
                Files.createDirectories(
                        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        try {
            if (posix) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException e) {
            // An inbox from an earlier run (or made by hand): narrowed to its owner before it is appended to.
            posix(file, "rw-------");
        }
        size = Files.size(file);
        writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private static void posix(Path p, String mode) throws IOException {
        if (p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        }
    }

    private static String clean(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
