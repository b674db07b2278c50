package dev.cadastro.loader.internal;

import dev.cadastro.loader.Note;
import dev.cadastro.loader.RejectReason;
import dev.cadastro.loader.StructuralFaultException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
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
     * Flags the roots of every company row. {@code counts} is {read, loaded, rejected by reason...}.
     *
     * @return bytes read
     */
    public static long read(Path dir, RootSet roots, RejectsLog rejects, long[] counts, long[] notes) {
        long bytes = 0;
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
                        }
                    }
                } else {
                    bytes += readCsv(Files.newInputStream(p), name, roots, rejects, counts, notes);
                }
            } catch (IOException e) {
                throw new StructuralFaultException(name + " cannot be read: " + e.getMessage(), e);
            }
        }
        return bytes;
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
