package dev.cadastro.benchmarks.register;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.NameWords;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadSummary;
import dev.cadastro.register.internal.Schema;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The rows the SQL peers load: one line per establishment the loader delivers ({@link
 * DumpReader#readInto}, the very stream {@code ./cadastro load} indexes), gzip-compressed, holding the columns every
 * {@code GET /empresas} filter and the result order need, plus the company name and district so a page
 * returns more than keys. The file is tab-separated in PostgreSQL's text COPY format: {@code \N} for
 * null, arrays as {@code {a,b}}, booleans {@code t}/{@code f}, dates ISO; text values have tabs, line
 * breaks and backslashes replaced by spaces, so no quoting is ever needed (DuckDB reads it with quoting
 * off).
 *
 * <p>Column values mean what the register's index means (modules/register {@code Schema}): {@code uf}
 * is the position in {@link RegisterQuery#UF_CODES} (99 when unknown), {@code municipio} the Receita
 * code as a number (0 when not 4 digits); legal nature, size and capital come from the company row
 * (null without one; capital null when unknown or negative); the opening date is null outside the
 * years 1000..9999; secondary CNAEs and area codes are distinct. The loader already drops a repeated
 * CNPJ (the first row wins), so every CNPJ is written once; the peers check that again after loading.
 *
 * <p>The file is reused when {@code rows.properties} names the same dump {@link #fingerprint} and the same
 * row count as the register index built from that dump. Work folders written before the fingerprint
 * existed carry none, so the rows are exported and both peers loaded again (hours at 70 M). Once the peers hold the rows the file may be deleted
 * ({@code --delete-rows}, to save disk at 70 M); the metadata then still says which rows the peers hold.
 */
final class PeerRows {
    static final String FILE = "rows.tsv.gz";
    static final String META = "rows.properties";

    /** Column names and their SQL types, in file order. */
    static final List<String[]> COLUMNS = List.of(
            new String[] {"cnpj", "VARCHAR"},
            new String[] {"uf", "SMALLINT"},
            new String[] {"municipio", "SMALLINT"},
            new String[] {"situacao", "VARCHAR"},
            new String[] {"porte", "VARCHAR"},
            new String[] {"natureza", "VARCHAR"},
            new String[] {"cnae", "VARCHAR"},
            new String[] {"cnaes2", "VARCHAR[]"},
            new String[] {"ddds", "VARCHAR[]"},
            new String[] {"mei", "BOOLEAN"},
            new String[] {"simples", "BOOLEAN"},
            new String[] {"tel", "BOOLEAN"},
            new String[] {"movel", "BOOLEAN"},
            new String[] {"email", "BOOLEAN"},
            new String[] {"divida", "BOOLEAN"},
            new String[] {"abertura", "DATE"},
            new String[] {"capital", "BIGINT"},
            new String[] {"razao_social", "VARCHAR"},
            new String[] {"bairro", "VARCHAR"},
            new String[] {"nomes", "VARCHAR"});

    /** The exported file and how it came to be. */
    record Export(Path file, String dumpDate, String dump, long rows, long millis, boolean reused) {
        /** The file, for a peer that must load it; it may have been deleted after an earlier load. */
        Path require(String peer) {
            if (!Files.exists(file)) {
                throw new IllegalStateException(file + " was deleted after the peers were loaded (--delete-rows), and "
                        + peer + " must load it again: delete " + file.resolveSibling(META)
                        + " and run again to export the rows");
            }
            return file;
        }
    }

    private PeerRows() {}

    /**
     * What identifies a dump's content without reading it: SHA-256 over the names of the ZIP files
     * under {@code dump} (and {@code debt} when given), each with its entries' names, sizes and
     * CRC-32s from the ZIP's central directory. Two dumps of the same row count differ here.
     */
    static String fingerprint(Path dump, Path debt) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (Path dir : debt == null ? List.of(dump) : List.of(dump, debt)) {
            List<Path> zips;
            try (Stream<Path> files = Files.list(dir)) {
                zips = files.filter(f -> f.getFileName()
                                .toString()
                                .toLowerCase(Locale.ROOT)
                                .endsWith(".zip"))
                        .sorted()
                        .toList();
            }
            if (zips.isEmpty()) {
                throw new IllegalArgumentException(dir + " holds no ZIP file to fingerprint");
            }
            for (Path zip : zips) {
                sha.update((zip.getFileName() + "\n").getBytes(StandardCharsets.UTF_8));
                try (ZipFile z = new ZipFile(zip.toFile())) {
                    for (ZipEntry e : Collections.list(z.entries())) {
                        sha.update((e.getName() + "\t" + e.getSize() + "\t" + Long.toHexString(e.getCrc()) + "\n")
                                .getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The rows recorded in {@code work} by an earlier export, for a run without the dump. */
    static Export recorded(Path work) throws IOException {
        Path meta = work.resolve(META);
        if (!Files.exists(meta)) {
            throw new IllegalStateException(meta + " does not exist: without a dump, the peers must have been loaded"
                    + " in this work folder first (--load-peers-only)");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(meta)) {
            p.load(r);
        }
        return new Export(
                work.resolve(FILE),
                p.getProperty("date"),
                p.getProperty("dump"),
                Long.parseLong(p.getProperty("rows")),
                Long.parseLong(p.getProperty("millis")),
                true);
    }

    /**
     * The rows of the dump under {@code work}: reused when the metadata matches the dump's {@code
     * fingerprint} and {@code expectedRows} (any count when it is negative), otherwise read from the dump
     * (once) and written.
     */
    static Export ensure(DumpReader reader, String fingerprint, Path work, long expectedRows) throws IOException {
        Path file = work.resolve(FILE);
        Path meta = work.resolve(META);
        Properties p = new Properties();
        if (Files.exists(meta)) {
            try (Reader r = Files.newBufferedReader(meta)) {
                p.load(r);
            }
            if (fingerprint.equals(p.getProperty("dump"))
                    && (expectedRows < 0 || Long.toString(expectedRows).equals(p.getProperty("rows")))) {
                return new Export(
                        file,
                        reader.dateCode(),
                        fingerprint,
                        Long.parseLong(p.getProperty("rows")),
                        Long.parseLong(p.getProperty("millis")),
                        true);
            }
        }
        Files.deleteIfExists(meta);
        Path tmp = work.resolve(FILE + ".tmp");
        long t0 = System.nanoTime();
        AtomicLong rows = new AtomicLong();
        List<StringBuilder> buffers = new ArrayList<>();
        // Compressed (deflate at its fastest level): the file shares the
        // disk with the dump, an index and the peers.
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            ThreadLocal<StringBuilder> local = ThreadLocal.withInitial(() -> {
                StringBuilder sb = new StringBuilder(1 << 21);
                synchronized (buffers) {
                    buffers.add(sb);
                }
                return sb;
            });
            LoadSummary summary = reader.readInto(e -> {
                StringBuilder sb = local.get();
                append(sb, e);
                rows.incrementAndGet();
                if (sb.length() >= 1 << 20) {
                    write(out, sb);
                }
            });
            for (StringBuilder sb : buffers) {
                write(out, sb);
            }
            if (summary.establishments() != rows.get()) {
                throw new IllegalStateException("the reader reports " + summary.establishments()
                        + " establishments, the export wrote " + rows.get());
            }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        p.clear();
        p.setProperty("date", reader.dateCode());
        p.setProperty("dump", fingerprint);
        p.setProperty("rows", Long.toString(rows.get()));
        p.setProperty("millis", Long.toString(millis));
        try (Writer w = Files.newBufferedWriter(meta)) {
            p.store(w, "rows.tsv.gz: the dump's establishments as the SQL peers load them");
        }
        return new Export(file, reader.dateCode(), fingerprint, rows.get(), millis, false);
    }

    private static void write(OutputStream out, StringBuilder sb) {
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        sb.setLength(0);
        synchronized (out) {
            try {
                out.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static void append(StringBuilder sb, Establishment e) {
        sb.append(e.cnpj().value()).append('\t');
        sb.append(Schema.ufOrdinal(e.uf())).append('\t');
        sb.append(Schema.municipioCode(e.municipio())).append('\t');
        code(sb, e.situacaoCadastral());
        Establishment.Company c = e.company();
        code(sb, c == null ? null : c.porte());
        code(sb, c == null ? null : c.naturezaJuridica());
        code(sb, e.cnaePrincipal());
        Set<String> secondary = new LinkedHashSet<>();
        for (String s : e.cnaesSecundarios()) {
            if (s != null && !s.isEmpty()) {
                secondary.add(s);
            }
        }
        array(sb, secondary);
        Set<String> ddds = new LinkedHashSet<>();
        for (Establishment.PhoneNumber p : e.telefones()) {
            ddds.add(p.ddd());
        }
        array(sb, ddds);
        flag(sb, e.isMei());
        flag(sb, e.isSimples());
        flag(sb, e.hasPhone());
        flag(sb, e.hasMobile());
        flag(sb, e.hasEmail());
        flag(sb, e.divida());
        LocalDate d = e.dataAbertura();
        if (d != null && d.getYear() >= 1000 && d.getYear() <= 9999) {
            sb.append(d).append('\t');
        } else {
            sb.append("\\N\t");
        }
        Long capital = c == null ? null : c.capitalSocialCentavos();
        if (capital != null && capital >= 0) {
            sb.append(capital.longValue()).append('\t');
        } else {
            sb.append("\\N\t");
        }
        text(sb, c == null ? null : c.razaoSocial());
        sb.setCharAt(sb.length() - 1, '\t');
        String bairro = e.bairro() == null || e.bairro().isBlank() ? null : RegisterQuery.normalizeText(e.bairro());
        text(sb, bairro);
        sb.setCharAt(sb.length() - 1, '\t');
        // The words name search matches, folded (upper-case ASCII), stop-words and numbers left out: what the
        // peer's full-text index is built on, so both sides split and fold a name the same way.
        text(sb, String.join(" ", NameWords.indexed(c == null ? null : c.razaoSocial(), e.nomeFantasia())));
    }

    private static void code(StringBuilder sb, String v) {
        if (v == null || v.isEmpty()) {
            sb.append("\\N\t");
        } else {
            sb.append(v).append('\t');
        }
    }

    private static void array(StringBuilder sb, Set<String> values) {
        sb.append('{').append(String.join(",", values)).append("}\t");
    }

    private static void flag(StringBuilder sb, boolean v) {
        sb.append(v ? 't' : 'f').append('\t');
    }

    /** A text value ended by a line break; tabs, line breaks and backslashes become spaces. */
    private static void text(StringBuilder sb, String v) {
        if (v == null) {
            sb.append("\\N\n");
            return;
        }
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            sb.append(ch == '\t' || ch == '\n' || ch == '\r' || ch == '\\' ? ' ' : ch);
        }
        sb.append('\n');
    }
}
