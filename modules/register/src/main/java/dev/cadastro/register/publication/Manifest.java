package dev.cadastro.register.publication;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a published generation holds in the store: every file's name, size and SHA-256 (for tools such as
 * {@code sha256sum}), the CRC32C of each of its {@code partSize} parts (so parts fetched in parallel are
 * verified as they arrive), and the facts of its {@code generation.properties}. A text file, one fact a
 * line. Version 2; version 1 (a SHA-256 per part, never released) is refused with a message that says
 * to publish again (ADR 0050).
 *
 * @param generation the generation's number in the store ({@code gen-<generation>/})
 * @param builtGeneration the number the builder gave it under its own index root
 */
record Manifest(
        long generation,
        long builtGeneration,
        long documents,
        long checksum,
        String sourceLabel,
        Instant publishedAt,
        boolean debtData,
        int partSize,
        List<FileEntry> files) {

    static final String MAGIC = "cadastro-register-manifest";
    static final int VERSION = 2;
    /**
     * A file name the manifest may carry: relative segments (a generation has subfolders), none starting
     * with a dot, so nothing can leave the folder it is fetched into.
     */
    private static final Pattern NAME =
            Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,254}(/[A-Za-z0-9_][A-Za-z0-9._-]{0,254}){0,8}");

    /** Whether a follower accepts {@code name} as a file of a generation ({@link #NAME}). */
    static boolean acceptsName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * One file of the generation; {@code parts} has one CRC32C (8 lower-case hex digits) per {@code
     * partSize} bytes (one for an empty file).
     */
    record FileEntry(String name, long size, String sha256, List<String> parts) {
        FileEntry {
            parts = List.copyOf(parts);
        }

        long partOffset(int part, int partSize) {
            return (long) part * partSize;
        }

        long partLength(int part, int partSize) {
            return Math.min(partSize, size - partOffset(part, partSize));
        }
    }

    Manifest {
        files = List.copyOf(files);
    }

    long totalBytes() {
        long n = 0;
        for (FileEntry f : files) {
            n += f.size();
        }
        return n;
    }

    static int partsOf(long size, int partSize) {
        return size == 0 ? 1 : (int) ((size + partSize - 1) / partSize);
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(MAGIC).append('=').append(VERSION).append('\n');
        sb.append("generation=").append(generation).append('\n');
        sb.append("builtGeneration=").append(builtGeneration).append('\n');
        sb.append("documents=").append(documents).append('\n');
        sb.append("checksum=").append(Long.toHexString(checksum)).append('\n');
        sb.append("sourceLabel=")
                .append(URLEncoder.encode(sourceLabel, StandardCharsets.UTF_8))
                .append('\n');
        sb.append("publishedAt=").append(publishedAt).append('\n');
        sb.append("debtData=").append(debtData).append('\n');
        sb.append("partSize=").append(partSize).append('\n');
        for (FileEntry f : files) {
            sb.append("file=")
                    .append(f.name())
                    .append(' ')
                    .append(f.size())
                    .append(' ')
                    .append(f.sha256())
                    .append('\n');
            for (String p : f.parts()) {
                sb.append("part=").append(p).append('\n');
            }
        }
        return sb.toString();
    }

    byte[] bytes() {
        return render().getBytes(StandardCharsets.UTF_8);
    }

    /** Parses a manifest; every name, size and digest is checked, so a damaged one is refused, not half read. */
    static Manifest parse(String text, String where) throws IOException {
        long generation = -1, built = -1, documents = -1, checksum = 0;
        String label = null;
        Instant at = null;
        Boolean debt = null;
        int partSize = -1;
        boolean magic = false;
        List<FileEntry> files = new ArrayList<>();
        String name = null;
        long size = -1;
        String sha = null;
        List<String> parts = new ArrayList<>();
        int lineNo = 0;
        try {
            for (String line : text.split("\n", -1)) {
                lineNo++;
                if (line.isEmpty()) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq < 0) {
                    throw new IOException(where + " line " + lineNo + " has no '='");
                }
                String key = line.substring(0, eq);
                String value = line.substring(eq + 1);
                if (!magic && !key.equals(MAGIC)) {
                    throw new IOException(where + " does not start with " + MAGIC);
                }
                switch (key) {
                    case MAGIC -> {
                        int version = Integer.parseInt(value);
                        if (version == 1) {
                            throw new IOException(where + " is a version-1 manifest (a SHA-256 per part), which this"
                                    + " server does not read: it reads version " + VERSION + " (a CRC32C per part);"
                                    + " publish the generation again with this version (load --publish)");
                        }
                        if (version != VERSION) {
                            throw new IOException(where + " has version " + value + ", this code reads " + VERSION);
                        }
                        magic = true;
                    }
                    case "generation" -> generation = Long.parseLong(value);
                    case "builtGeneration" -> built = Long.parseLong(value);
                    case "documents" -> documents = Long.parseLong(value);
                    case "checksum" -> checksum = Long.parseUnsignedLong(value, 16);
                    case "sourceLabel" -> label = URLDecoder.decode(value, StandardCharsets.UTF_8);
                    case "publishedAt" -> at = Instant.parse(value);
                    case "debtData" -> debt = Boolean.parseBoolean(value);
                    case "partSize" -> partSize = Integer.parseInt(value);
                    case "file" -> {
                        if (name != null) {
                            files.add(entry(name, size, sha, parts, partSize, where));
                        }
                        String[] f = value.split(" ");
                        if (f.length != 3 || !NAME.matcher(f[0]).matches()) {
                            throw new IOException(where + " line " + lineNo + " is not 'file=NAME SIZE SHA256'");
                        }
                        name = f[0];
                        size = Long.parseLong(f[1]);
                        sha = digest(f[2], where, lineNo);
                        parts = new ArrayList<>();
                    }
                    case "part" -> {
                        if (name == null) {
                            throw new IOException(where + " line " + lineNo + " has a part before any file");
                        }
                        parts.add(crc(value, where, lineNo));
                    }
                    default -> throw new IOException(where + " line " + lineNo + " has an unknown key " + key);
                }
            }
        } catch (NumberFormatException | java.time.format.DateTimeParseException e) {
            throw new IOException(where + " line " + lineNo + " is malformed: " + e.getMessage(), e);
        }
        if (name != null) {
            files.add(entry(name, size, sha, parts, partSize, where));
        }
        if (!magic || generation < 1 || documents < 0 || label == null || at == null || debt == null || partSize < 1) {
            throw new IOException(
                    where + " lacks one of generation, documents, sourceLabel, publishedAt, debtData," + " partSize");
        }
        if (files.stream().map(FileEntry::name).distinct().count() != files.size()) {
            throw new IOException(where + " names a file twice");
        }
        return new Manifest(generation, built, documents, checksum, label, at, debt, partSize, files);
    }

    private static FileEntry entry(String name, long size, String sha, List<String> parts, int partSize, String where)
            throws IOException {
        if (partSize < 1 || size < 0 || parts.size() != partsOf(size, partSize)) {
            throw new IOException(where + " gives " + name + " " + parts.size() + " parts for " + size
                    + " bytes of parts of " + partSize);
        }
        return new FileEntry(name, size, sha, parts);
    }

    private static String digest(String hex, String where, int lineNo) throws IOException {
        if (hex.length() != 64 || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new IOException(where + " line " + lineNo + " has a SHA-256 that is not 64 lower-case hex digits");
        }
        return hex;
    }

    private static String crc(String hex, String where, int lineNo) throws IOException {
        if (hex.length() != 8 || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new IOException(where + " line " + lineNo + " has a part CRC32C that is not 8 lower-case hex digits");
        }
        return hex;
    }

    /** A part's CRC32C as the manifest writes it: 8 lower-case hex digits. */
    static String crcHex(long crc32c) {
        return HexFormat.of().toHexDigits((int) crc32c);
    }

    static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}
