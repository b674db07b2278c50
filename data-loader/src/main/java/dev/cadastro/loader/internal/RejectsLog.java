package dev.cadastro.loader.internal;

import dev.cadastro.loader.RejectReason;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The rejects file: UTF-8, one line per rejected row, tab-separated: the file inside the ZIP, the line
 * number where the row starts, the reason code, and the raw row as the file wrote it, escaped so that
 * it stays on one line ({@code \\}, {@code \t}, {@code \n}, {@code \r}, {@code \0}, other control
 * characters as {@code \xHH}).
 */
public final class RejectsLog implements Closeable {
    public static final String HEADER = "# file\tline\treason\traw";

    private final Path path;
    private final BufferedWriter out;
    private long written;

    public RejectsLog(Path path) {
        this.path = path;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
            out.write(HEADER);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rejects file " + path, e);
        }
    }

    /** Writes one rejected row; synchronized, since the Socios rows are read on a thread of their own. */
    public synchronized void reject(String file, long line, RejectReason reason, String raw) {
        try {
            out.write(file);
            out.write('\t');
            out.write(Long.toString(line));
            out.write('\t');
            out.write(reason.code());
            out.write('\t');
            out.write(escape(raw));
            out.write('\n');
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rejects file " + path, e);
        }
    }

    /** One line of text: backslash, tab, line breaks, NUL and other control characters escaped. */
    public static String escape(String raw) {
        StringBuilder sb = new StringBuilder(raw.length() + 8);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\0' -> sb.append("\\0");
                default -> {
                    if (c < 0x20 || (c >= 0x7F && c < 0xA0)) {
                        sb.append(String.format(Locale.ROOT, "\\x%02X", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    public synchronized long written() {
        return written;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rejects file " + path, e);
        }
    }
}
