package dev.cadastro.loader.internal;

import dev.cadastro.loader.Note;
import dev.cadastro.loader.RejectReason;
import dev.cadastro.loader.StructuralFaultException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the PGFN active-debt files (the quarterly "divida ativa" open data): a folder of ZIPs and/or
 * CSV files with a header row, {@code ;} between fields, no quotes, ISO-8859-1. The CPF_CNPJ and
 * TIPO_PESSOA columns are found by their header names; each company row (TIPO_PESSOA "Pessoa
 * juridica") flags the root made of the first 8 characters of its formatted CNPJ.
 */
public final class DebtReader {
    private DebtReader() {}

    /** Files of the folder that hold debt rows, sorted by name. */
    static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new StructuralFaultException("the debt folder " + dir + " does not exist or is not a folder");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                        return Files.isRegularFile(p) && (n.endsWith(".zip") || n.endsWith(".csv"));
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the debt folder " + dir, e);
        }
    }

    /** Uncompressed bytes of the debt files, for progress; 0 without a folder. */
    public static long size(Path dir) {
        if (dir == null) {
            return 0;
        }
        long total = 0;
        for (Path p : files(dir)) {
            try {
                if (p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".zip")) {
                    try (ZipFile z = new ZipFile(p.toFile())) {
                        for (ZipEntry e : Collections.list(z.entries())) {
                            total += Math.max(0, e.getSize());
                        }
                    }
                } else {
                    total += Files.size(p);
                }
            } catch (IOException e) {
                throw new StructuralFaultException(p.getFileName() + " is not a readable ZIP: " + e.getMessage(), e);
            }
        }
        return total;
    }

    /**
     * What {@link #read} read.
     *
     * @param bytes uncompressed bytes read
     * @param files the folder's files read (ZIPs and CSVs), by name
     * @param csvs the CSV files read, inside the ZIPs or beside them
     * @param references the reference months ({@code 2026-06}) the CSV names carry, in order
     */
    public record Read(long bytes, List<String> files, int csvs, List<String> references) {}

    /** A year and month at the end of a PGFN file name: {@code arquivo_lai_SIDA_1_202606.csv}. */
    private static final Pattern REFERENCE = Pattern.compile("(?<![0-9])((?:19|20)[0-9]{2})(0[1-9]|1[0-2])\\.csv$");

    /**
     * Flags the roots of every company row. {@code counts} is {read, loaded, rejected by reason...}.
     *
     * @throws StructuralFaultException when the folder holds no debt file: a load must not publish a
     *     generation as having debt data when it read none
     */
    public static Read read(Path dir, RootSet roots, RejectsLog rejects, long[] counts, long[] notes) {
        long bytes = 0;
        List<String> read = new ArrayList<>();
        int csvs = 0;
        SortedSet<String> references = new TreeSet<>();
        for (Path p : files(dir)) {
            String name = p.getFileName().toString();
            try {
                if (name.toLowerCase(Locale.ROOT).endsWith(".zip")) {
                    try (ZipFile z = new ZipFile(p.toFile())) {
                        for (ZipEntry e : Collections.list(z.entries())) {
                            if (e.isDirectory()
                                    || !e.getName().toLowerCase(Locale.ROOT).endsWith(".csv")) {
                                continue;
                            }
                            DumpFile f = new DumpFile(null, 0, p, e.getName(), e.getSize(), e.getCrc(), null);
                            bytes += readCsv(VerifiedEntryStream.open(f), e.getName(), roots, rejects, counts, notes);
                            csvs++;
                            reference(e.getName(), references);
                        }
                    }
                } else {
                    bytes += readCsv(Files.newInputStream(p), name, roots, rejects, counts, notes);
                    csvs++;
                    reference(name, references);
                }
                read.add(name);
            } catch (IOException e) {
                throw new StructuralFaultException(name + " cannot be read: " + e.getMessage(), e);
            }
        }
        if (csvs == 0) {
            throw new StructuralFaultException("the debt folder " + dir + " holds no PGFN debt file (a .csv, or a"
                    + " .zip of .csv files); remove the folder or give the PGFN files");
        }
        return new Read(bytes, List.copyOf(read), csvs, List.copyOf(references));
    }

    private static void reference(String name, SortedSet<String> references) {
        String base = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        Matcher m = REFERENCE.matcher(base);
        if (m.find()) {
            references.add(m.group(1) + "-" + m.group(2));
        }
    }

    private static long readCsv(
            InputStream in, String name, RootSet roots, RejectsLog rejects, long[] counts, long[] notes)
            throws IOException {
        try (CsvReader r = new CsvReader(in, ';', 1 << 16, false)) {
            if (!r.next()) {
                return r.bytesRead();
            }
            int cnpjColumn = -1;
            int typeColumn = -1;
            for (int i = 0; i < r.fieldCount(); i++) {
                String h = r.string(i);
                if ("CPF_CNPJ".equalsIgnoreCase(h == null ? "" : h.strip())) {
                    cnpjColumn = i;
                } else if ("TIPO_PESSOA".equalsIgnoreCase(h == null ? "" : h.strip())) {
                    typeColumn = i;
                }
            }
            if (cnpjColumn < 0 || typeColumn < 0) {
                throw new StructuralFaultException(name + " is not a PGFN debt file: its header lacks CPF_CNPJ"
                        + " or TIPO_PESSOA (header: " + r.rawText() + ")");
            }
            int columns = r.fieldCount();
            byte[] root = new byte[8];
            while (r.next()) {
                counts[0]++;
                RejectReason bad = null;
                if (r.fieldCount() != columns) {
                    bad = RejectReason.COLUMN_COUNT;
                } else if (!isCompany(r, typeColumn)) {
                    notes[Note.DEBT_NOT_COMPANY.ordinal()]++;
                    continue;
                } else if (!root(r, cnpjColumn, root) || !roots.add(root, 0)) {
                    bad = RejectReason.INVALID_CNPJ;
                }
                if (bad == null) {
                    counts[1]++;
                } else {
                    counts[2 + bad.ordinal()]++;
                    rejects.reject(name, r.lineNumber(), bad, r.rawText());
                }
            }
            notes[Note.BLANK_LINE.ordinal()] += r.blankLines();
            return r.bytesRead();
        }
    }

    /** "Pessoa juridica" (any case and accent). */
    private static boolean isCompany(CsvReader r, int field) {
        byte[] b = r.bytes();
        int s = r.start(field);
        int len = r.length(field);
        for (int i = s; i + 3 <= s + len; i++) {
            if ((b[i] | 0x20) == 'j' && (b[i + 1] | 0x20) == 'u' && (b[i + 2] | 0x20) == 'r') {
                return true;
            }
        }
        return false;
    }

    /** The first 8 characters of [0-9A-Z] of the formatted CNPJ; false when there are fewer than 14. */
    private static boolean root(CsvReader r, int field, byte[] root) {
        byte[] b = r.bytes();
        int n = 0;
        int total = 0;
        for (int i = r.start(field); i < r.end(field); i++) {
            byte c = b[i];
            if (c >= 'a' && c <= 'z') {
                c -= 32;
            }
            if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
                if (n < 8) {
                    root[n++] = c;
                }
                total++;
            } else if (c != '.' && c != '/' && c != '-' && c != ' ') {
                return false;
            }
        }
        return total == 14;
    }
}
