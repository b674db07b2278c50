package dev.cadastro.loader.generate;

import dev.cadastro.core.sample.WordList;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.internal.Tables;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Writes the next month's dump from a previous one ({@code ./cadastro generate --evolve-from DIR
 * --reference YYYY-MM}): every row of the previous dump is read and written again, a share of them
 * changed at the monthly rates below, and the month's new companies are appended, generated as
 * {@link DumpGenerator} generates companies but active and opened in the reference month. Socios,
 * Simples and the PGFN files are carried over (the new companies get their own Simples and Socios rows,
 * and no debt).
 *
 * <p>Whether a row changes, and how, is drawn from a generator seeded by the seed, the reference month
 * and the row's key (the CNPJ, or the root for Empresas), never from the row's position: the same
 * inputs write the same bytes whatever the thread count, and the two copies of a duplicated line change
 * alike. A line that does not split into its family's columns (a quirk row) is copied as it was.
 *
 * <p>The rates (per month; docs/register.md cites or states each):
 *
 * <ul>
 *   <li>{@link #OPENINGS}: new establishments, a share of the previous month's lines: about 4 million
 *       companies a year, 330,000 a month, for the 70 million of the register (Mapa de Empresas);
 *   <li>{@link #CLOSURES}: of the active establishments, closed ({@code 08}, BAIXADA): 854,150 closures
 *       in the four months of the first 2024 report of the Mapa de Empresas for 21,738,420 active
 *       companies, 0.98% a month;
 *   <li>the others are stated, not cited (no public monthly figure): {@link #INAPTAS} of the active
 *       become {@code 04} (INAPTA), {@link #REACTIVATIONS} of the inaptas become active again,
 *       {@link #REMOVALS} of the {@code 01} (NULA) rows leave the dump, {@link #MOVES} of the rows move
 *       (a tenth of them to another state, a third of the rest to another municipality),
 *       {@link #CONTACTS} change phone or e-mail, {@link #CNAE_CHANGES} change main activity, and of the
 *       companies {@link #PORTE_CHANGES} change size and {@link #CAPITAL_CHANGES} capital.
 * </ul>
 */
public final class DumpEvolver {
    /** New establishments a month, as a share of the previous month's lines (330,000 at 70 M). */
    public static final double OPENINGS = 330_000.0 / 70_000_000.0;
    /** Active establishments closed a month: 854,150 / 21,738,420 / 4 (Mapa de Empresas, 1st 2024 report). */
    public static final double CLOSURES = 854_150.0 / 21_738_420.0 / 4;
    /** Active establishments made INAPTA a month (stated). */
    public static final double INAPTAS = 0.002;
    /** INAPTA establishments made active again a month (stated). */
    public static final double REACTIVATIONS = 0.01;
    /** NULA rows that leave the dump a month (stated; the path of a CNPJ that disappears). */
    public static final double REMOVALS = 0.01;
    /** Rows whose address changes a month (stated). */
    public static final double MOVES = 0.003;
    /** Rows whose phone or e-mail changes a month (stated). */
    public static final double CONTACTS = 0.005;
    /** Rows whose main CNAE changes a month (stated). */
    public static final double CNAE_CHANGES = 0.001;
    /** Companies whose size changes a month (stated). */
    public static final double PORTE_CHANGES = 0.001;
    /** Companies whose capital changes a month (stated). */
    public static final double CAPITAL_CHANGES = 0.002;

    /** The generator's state beside a dump: the seed and the first company index a later month may use. */
    static final String STATE_FILE = "gerador.properties";

    private static final String[] STREET_TYPES = {"RUA", "AVENIDA", "TRAVESSA", "ALAMEDA", "ESTRADA"};
    private static final String[] STREETS = WordList.STREET_NAMES.words();
    private static final String[] BAIRROS = WordList.NEIGHBOURHOODS.words();
    private static final String[] DOMAINS = WordList.EMAIL_DOMAINS.words();
    private static final String[] PORTES = {"00", "01", "03", "05"};

    /** What was applied, by kind: rows the evolution changed (a row may count under several kinds). */
    public enum Applied {
        OPENED,
        REMOVED,
        CLOSED,
        INAPTA,
        REACTIVATED,
        MOVED,
        CONTACT,
        CNAE,
        PORTE,
        CAPITAL
    }

    /**
     * What {@link #evolve} wrote.
     *
     * @param dump the new dump (its establishments are the lines a loader should load, estimated as in
     *     the previous dump: every line but the quirk lines it must reject)
     * @param from the previous dump's reference month
     * @param reference the new dump's reference month
     * @param applied rows changed, by kind
     */
    public record EvolvedDump(GeneratedDump dump, YearMonth from, YearMonth reference, Map<Applied, Long> applied) {}

    private DumpEvolver() {}

    /**
     * Writes into {@code out} the month {@code reference} that follows the dump in {@code from}.
     *
     * @param options seed, threads, compression and quirk rate of the new rows (its establishments and
     *     extraction date are ignored: the openings follow from the previous dump, the extraction date is
     *     the reference month's last day)
     * @throws IllegalArgumentException when {@code from} holds no dump of this generator, or {@code
     *     reference} is not after its month
     */
    public static EvolvedDump evolve(Path from, Path out, YearMonth reference, GeneratorOptions options) {
        Objects.requireNonNull(reference, "reference");
        long start = System.nanoTime();
        YearMonth previous = previousMonth(from);
        if (!reference.isAfter(previous)) {
            throw new IllegalArgumentException(
                    "reference " + reference + " must be after " + previous + ", the month of " + from);
        }
        Properties state = readState(from);
        long indexBase = Long.parseLong(state.getProperty("next-company-index", "0"));
        GeneratorOptions o = GeneratorOptions.builder(1)
                .seed(options.seed() * 1_000_003L + reference.getYear() * 12L + reference.getMonthValue())
                .quirkRate(options.quirkRate())
                .alphanumericShare(options.alphanumericShare())
                .threads(options.threads())
                .compressionLevel(options.compressionLevel())
                .debtShare(0)
                .extractionDate(reference.atEndOfMonth())
                .build();
        long salt = DumpGenerator.mixSeed(options.seed() ^ (reference.getYear() * 12L + reference.getMonthValue()));
        DumpGenerator.Model model = DumpGenerator.Model.load();
        String date = o.dateCode();
        try {
            Files.createDirectories(out);
            for (Family f : Family.values()) {
                if (f.isLookup()) {
                    try (ZipOutputStream zip = DumpGenerator.openZip(out, f, 0, date, o)) {
                        zip.write(Tables.bundled(Tables.bundledName(f)));
                        zip.closeEntry();
                    }
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(o.threads(), r -> {
                Thread t = new Thread(r, "evolver");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<PartOutcome>> futures = new ArrayList<>();
                for (int p = 0; p < DumpGenerator.PART_COUNT; p++) {
                    int part = p;
                    futures.add(pool.submit(() -> evolvePart(from, out, part, o, model, reference, salt, indexBase)));
                }
                Map<Applied, Long> applied = new EnumMap<>(Applied.class);
                for (Applied a : Applied.values()) {
                    applied.put(a, 0L);
                }
                Map<Quirk, Long> quirks = new EnumMap<>(Quirk.class);
                long establishments = 0;
                long rows = 0;
                long companies = 0;
                long lastIndex = indexBase - 1;
                List<Path> simples = new ArrayList<>();
                for (Future<PartOutcome> f : futures) {
                    PartOutcome r = f.get();
                    r.applied.forEach((k, v) -> applied.merge(k, v, Long::sum));
                    r.quirks.forEach((k, v) -> quirks.merge(k, v, Long::sum));
                    establishments += r.establishments;
                    rows += r.rows;
                    companies += r.companies;
                    lastIndex = Math.max(lastIndex, r.lastIndex);
                    simples.add(r.simples);
                }
                try (ZipOutputStream zip = DumpGenerator.openZip(out, Family.SIMPLES, 0, date, o)) {
                    try (InputStream in = entry(from, Family.SIMPLES, 0)) {
                        in.transferTo(zip);
                    }
                    for (Path s : simples) {
                        try (InputStream in = Files.newInputStream(s)) {
                            in.transferTo(zip);
                        }
                        Files.delete(s);
                    }
                    zip.closeEntry();
                }
                copyDebt(from, out);
                Files.writeString(out.resolve(LoadOptions.REFERENCE_FILE), reference + "\n", StandardCharsets.US_ASCII);
                writeState(out, options.seed(), DumpGenerator.nextIndexBase(indexBase, lastIndex));
                GeneratedDump dump = new GeneratedDump(
                        out,
                        date,
                        establishments,
                        rows,
                        companies,
                        quirks,
                        0,
                        0,
                        Duration.ofNanos(System.nanoTime() - start));
                return new EvolvedDump(dump, previous, reference, applied);
            } finally {
                pool.shutdownNow();
                pool.awaitTermination(1, TimeUnit.MINUTES);
            }
        } catch (IOException | ExecutionException | InterruptedException e) {
            throw DumpGenerator.failure("cannot write the evolved dump into " + out, "evolving the dump", e);
        }
    }

    /** Records the seed and the next company index beside a dump. */
    static void writeState(Path dir, long seed, long nextIndex) throws IOException {
        Files.writeString(
                dir.resolve(STATE_FILE),
                "# written by ./cadastro generate: what --evolve-from needs\nseed=" + seed + "\nnext-company-index="
                        + nextIndex + "\n",
                StandardCharsets.US_ASCII);
    }

    private static Properties readState(Path from) {
        Path file = from.resolve(STATE_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(from + " has no " + STATE_FILE
                    + ": it was not written by this version of ./cadastro generate; generate it again");
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    private static YearMonth previousMonth(Path from) {
        Path file = from.resolve(LoadOptions.REFERENCE_FILE);
        try {
            return YearMonth.parse(
                    Files.readString(file, StandardCharsets.US_ASCII).strip());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    from + " holds no " + LoadOptions.REFERENCE_FILE + ": not a generated dump");
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(file + " holds no month (YYYY-MM)");
        }
    }

    private static void copyDebt(Path from, Path out) throws IOException {
        Path debt = from.resolve(GeneratedDump.DEBT_FOLDER);
        if (!Files.isDirectory(debt)) {
            return;
        }
        Path target = Files.createDirectories(out.resolve(GeneratedDump.DEBT_FOLDER));
        try (Stream<Path> files = Files.list(debt)) {
            for (Path f : files.sorted().toList()) {
                Files.copy(
                        f,
                        target.resolve(f.getFileName().toString()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static InputStream entry(Path dir, Family family, int part) throws IOException {
        ZipInputStream zip = new ZipInputStream(
                new BufferedInputStream(Files.newInputStream(dir.resolve(family.zipName(part))), 1 << 16));
        if (zip.getNextEntry() == null) {
            zip.close();
            throw new IOException(family.zipName(part) + " in " + dir + " is empty");
        }
        return zip;
    }

    private record PartOutcome(
            Map<Applied, Long> applied,
            Map<Quirk, Long> quirks,
            long establishments,
            long rows,
            long companies,
            long lastIndex,
            Path simples) {}

    private static PartOutcome evolvePart(
            Path from,
            Path out,
            int part,
            GeneratorOptions o,
            DumpGenerator.Model model,
            YearMonth reference,
            long salt,
            long indexBase)
            throws IOException {
        Map<Applied, Long> applied = new EnumMap<>(Applied.class);
        String date = o.dateCode();
        RowWriter row = new RowWriter();
        long lines = 0;
        long companies = 0;
        Path simplesTemp = Files.createTempFile(out, "simples-evolve" + part + "-", ".tmp");
        try (ZipOutputStream empresas = DumpGenerator.openZip(out, Family.EMPRESAS, part, date, o);
                ZipOutputStream estabelecimentos = DumpGenerator.openZip(out, Family.ESTABELECIMENTOS, part, date, o);
                ZipOutputStream socios = DumpGenerator.openZip(out, Family.SOCIOS, part, date, o);
                OutputStream simples = new BufferedOutputStream(Files.newOutputStream(simplesTemp), 1 << 16)) {
            OutputStream emp = new BufferedOutputStream(empresas, 1 << 16);
            OutputStream est = new BufferedOutputStream(estabelecimentos, 1 << 16);
            OutputStream soc = new BufferedOutputStream(socios, 1 << 16);
            try (InputStream in = entry(from, Family.EMPRESAS, part)) {
                Lines r = new Lines(in);
                byte[] line;
                while ((line = r.next()) != null) {
                    String[] f = split(line, r.length(), Family.EMPRESAS.columns());
                    if (f == null) {
                        emp.write(line, 0, r.length());
                        continue;
                    }
                    companies++;
                    SplittableRandom rng = new SplittableRandom(DumpGenerator.mixSeed(salt ^ key(f[0])));
                    if (rng.nextDouble() < PORTE_CHANGES) {
                        String porte = f[5];
                        while (porte.equals(f[5])) {
                            porte = PORTES[rng.nextInt(PORTES.length)];
                        }
                        f[5] = porte;
                        applied.merge(Applied.PORTE, 1L, Long::sum);
                    }
                    if (rng.nextDouble() < CAPITAL_CHANGES && !f[4].startsWith("999999999999")) {
                        int comma = f[4].indexOf(',');
                        long reais = parseLong(comma < 0 ? f[4] : f[4].substring(0, comma));
                        long next = reais * (2 + rng.nextInt(4)) + 1000 + rng.nextInt(100_000);
                        f[4] = next + ",00";
                        applied.merge(Applied.CAPITAL, 1L, Long::sum);
                    }
                    write(row, f, emp);
                }
            }
            try (InputStream in = entry(from, Family.ESTABELECIMENTOS, part)) {
                Lines r = new Lines(in);
                byte[] line;
                while ((line = r.next()) != null) {
                    lines++;
                    String[] f = split(line, r.length(), Family.ESTABELECIMENTOS.columns());
                    if (f == null) {
                        est.write(line, 0, r.length());
                        continue;
                    }
                    SplittableRandom rng = new SplittableRandom(DumpGenerator.mixSeed(salt ^ key(f[0] + f[1] + f[2])));
                    if (change(f, rng, model, reference, applied)) {
                        write(row, f, est);
                    }
                }
            }
            try (InputStream in = entry(from, Family.SOCIOS, part)) {
                in.transferTo(soc);
            }
            long target = Math.round(lines * OPENINGS);
            DumpGenerator.Part fresh = new DumpGenerator.Part(out, part, target, o, model, null);
            fresh.indexBase = indexBase;
            fresh.opening = reference;
            long[] made = target == 0 ? new long[3] : fresh.produce(emp, est, soc, simples);
            applied.merge(Applied.OPENED, made[0], Long::sum);
            emp.flush();
            est.flush();
            soc.flush();
            empresas.closeEntry();
            estabelecimentos.closeEntry();
            socios.closeEntry();
            long removed = applied.getOrDefault(Applied.REMOVED, 0L);
            return new PartOutcome(
                    applied,
                    fresh.quirkCounts(),
                    lines - removed + made[0],
                    lines - removed + made[1],
                    companies + made[2],
                    fresh.lastIndex,
                    simplesTemp);
        }
    }

    /** The row's situação cadastral becomes {@code code} on {@code day} for {@code motivo}, counted as {@code change}. */
    private static void situacao(
            String[] f, String code, String day, String motivo, Map<Applied, Long> applied, Applied change) {
        f[5] = code;
        f[6] = day;
        f[7] = motivo;
        applied.merge(change, 1L, Long::sum);
    }

    /** Changes one establishment row in place; false when the row leaves the dump. */
    private static boolean change(
            String[] f, SplittableRandom rng, DumpGenerator.Model model, YearMonth month, Map<Applied, Long> applied) {
        double u = rng.nextDouble();
        String day = yyyymmdd(month.atDay(1 + rng.nextInt(month.lengthOfMonth())));
        switch (f[5]) {
            case "01" -> {
                if (u < REMOVALS) {
                    applied.merge(Applied.REMOVED, 1L, Long::sum);
                    return false;
                }
            }
            case "02" -> {
                if (u < CLOSURES) {
                    situacao(f, "08", day, "01", applied, Applied.CLOSED);
                } else if (u < CLOSURES + INAPTAS) {
                    situacao(f, "04", day, "63", applied, Applied.INAPTA);
                }
            }
            case "04" -> {
                if (u < REACTIVATIONS) {
                    situacao(f, "02", day, "00", applied, Applied.REACTIVATED);
                }
            }
            default -> {}
        }
        String uf = f[19];
        if (rng.nextDouble() < MOVES && model.municipios.containsKey(uf)) {
            double where = rng.nextDouble();
            if (where < 0.1) {
                uf = model.ufs[DumpGenerator.Model.pick(model.ufCumulative, rng)];
                f[19] = uf;
            }
            if (where < 0.4) {
                String[] ms = model.municipios.get(uf);
                f[20] = ms[DumpGenerator.Model.pick(model.municipioCumulative.get(uf), rng)];
            }
            f[13] = STREET_TYPES[rng.nextInt(STREET_TYPES.length)];
            f[14] = STREETS[rng.nextInt(STREETS.length)] + " " + STREETS[rng.nextInt(STREETS.length)];
            f[15] = Integer.toString(1 + rng.nextInt(3000));
            f[16] = "";
            f[17] = BAIRROS[rng.nextInt(BAIRROS.length)];
            int[] range = model.cepRanges.get(uf);
            f[18] = DumpGenerator.Part.pad(
                    (long) (range[0] + rng.nextInt(range[1] - range[0])) * 1000 + rng.nextInt(1000), 8);
            applied.merge(Applied.MOVED, 1L, Long::sum);
        }
        if (rng.nextDouble() < CONTACTS) {
            if (rng.nextBoolean()) {
                int[] ddds = model.ddds.getOrDefault(uf, new int[] {11});
                f[21] = DumpGenerator.Part.pad(ddds[rng.nextInt(ddds.length)], 2);
                f[22] = "9" + DumpGenerator.Part.pad(rng.nextInt(100_000_000), 8);
            } else {
                f[27] = "contato" + rng.nextInt(100_000) + "@" + DOMAINS[rng.nextInt(DOMAINS.length)];
            }
            applied.merge(Applied.CONTACT, 1L, Long::sum);
        }
        if (rng.nextDouble() < CNAE_CHANGES) {
            String cnae = f[11];
            while (cnae.equals(f[11])) {
                cnae = model.cnaes[DumpGenerator.Model.pick(model.cnaeCumulative, rng)];
            }
            f[11] = cnae;
            applied.merge(Applied.CNAE, 1L, Long::sum);
        }
        return true;
    }

    private static long parseLong(String s) {
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9' || v > 1_000_000_000_000L) {
                return 0;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static String yyyymmdd(java.time.LocalDate d) {
        return String.format(Locale.ROOT, "%04d%02d%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    }

    private static long key(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    private static void write(RowWriter row, String[] f, OutputStream out) throws IOException {
        for (String v : f) {
            row.field(v);
        }
        row.end(out, 1);
    }

    /**
     * The fields of a line the generator wrote ({@code "a";"b";...;"z"} and LF), decoded as ISO-8859-1
     * so that writing them again gives the same bytes; null when it does not have {@code columns} fields.
     */
    static String[] split(byte[] line, int length, int columns) {
        int end = length - 1; // the LF
        if (end < 2 || line[0] != '"' || line[end - 1] != '"') {
            return null;
        }
        String[] f = new String[columns];
        int n = 0;
        int from = 1;
        for (int i = 1; i + 2 < end; i++) {
            if (line[i] == '"' && line[i + 1] == ';' && line[i + 2] == '"') {
                if (n == columns - 1) {
                    return null;
                }
                f[n++] = new String(line, from, i - from, StandardCharsets.ISO_8859_1);
                from = i + 3;
                i += 2;
            }
        }
        if (n != columns - 1) {
            return null;
        }
        f[n] = new String(line, from, end - 1 - from, StandardCharsets.ISO_8859_1);
        return f;
    }

    /** The lines of a dump file: each ends with a quote and LF (an LF inside a field is not after a quote). */
    static final class Lines {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int limit;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);
        private byte[] current = new byte[512];
        private int length;

        Lines(InputStream in) {
            this.in = in;
        }

        /** The next line, LF included, in a buffer valid until the next call ({@link #length()} bytes); null at the end. */
        byte[] next() throws IOException {
            line.reset();
            int previous = -1;
            while (true) {
                if (pos == limit) {
                    limit = in.read(buf);
                    pos = 0;
                    if (limit <= 0) {
                        limit = 0;
                        if (line.size() == 0) {
                            return null;
                        }
                        return take();
                    }
                }
                byte b = buf[pos++];
                line.write(b);
                if (b == '\n' && previous == '"') {
                    return take();
                }
                previous = b;
            }
        }

        int length() {
            return length;
        }

        private byte[] take() {
            length = line.size();
            if (current.length < length) {
                current = new byte[Math.max(length, current.length * 2)];
            }
            byte[] b = line.toByteArray();
            System.arraycopy(b, 0, current, 0, length);
            return current;
        }
    }
}
