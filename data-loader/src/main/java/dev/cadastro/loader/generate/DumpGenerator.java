package dev.cadastro.loader.generate;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Ddd;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.Company;
import dev.cadastro.core.register.Establishment.PhoneNumber;
import dev.cadastro.core.register.Establishment.SimplesOption;
import dev.cadastro.core.sample.WordList;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.internal.Tables;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a synthetic monthly dump in exactly the Receita Federal's layout: the 37 ZIPs with their real
 * inner file names and extraction date, every field quoted, LF line ends, ISO-8859-1, the lookup tables
 * of a real dump (bundled byte-exact), and realistic distributions: the states' shares of the register
 * and the municipalities within a state from cited population figures ({@link Geography}), CNAE
 * popularity, the status mix, MEI and Simples shares, phones, e-mails, opening dates and capital,
 * partner rows per establishment from a cited count ({@code PUBLISHED_QSA_SHARE}) (docs/loader.md says
 * what each is based on). The real data's quirks ({@link Quirk}) are injected at
 * {@link GeneratorOptions#quirkRate()}. Beside the dump, in {@code debt/}, synthetic PGFN active-debt
 * files flag {@link GeneratorOptions#debtShare()} of the companies ({@link PgfnRows}); {@code
 * referencia.txt} names the dump's reference month, the extraction date's, which a load records.
 *
 * <p>Deterministic: each of the ten parts draws from its own generator seeded from the seed and the
 * part number, so the same options write the same bytes whatever the thread count. Memory is constant:
 * rows stream into the ZIPs (ZIP64 when an entry passes 4 GB); the Simples rows of each part wait in a
 * temporary file until they are concatenated, in part order, into {@code Simples.zip}.
 */
public final class DumpGenerator {
    private static final int PARTS = 10;

    /**
     * Share of the partnered companies (neither MEI nor natureza 2135) whose partner structure (QSA)
     * the dump publishes in Socios; the others have no Socios row, as many companies of the real dump
     * have none. Chosen so the dump has 0.61 partner rows per establishment, the ratio of the one public
     * count we can cite: the Brasil.io "socios-brasil" dataset, converted from the Receita Federal's open
     * CNPJ data and captured 2020-07-19, has 27,176,265 partner rows (socio.csv) for 44,467,068
     * establishments (empresa.csv, one row per establishment), 0.611 (its 2019 capture: 26,188,771
     * partner rows for about 42 million establishments, 0.62). Publishing every partnered company's 1-3
     * partners gave 0.903 (63,232,343 rows for 69,992,330 establishments at 70 M, seed 70); 0.676 of that
     * is 0.611. Drawn once per company from the company's own side generator, so the company generator's
     * draws, and with them Empresas, Estabelecimentos and Simples, are what they were. docs/loader.md
     * gives the measured ratios; {@code GeneratorPartnersTest} checks 0.61 within 0.03.
     */
    private static final double PUBLISHED_QSA_SHARE = 0.676;

    private static final long ENTRY_TIME =
            LocalDate.of(2026, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();

    private DumpGenerator() {}

    /** Writes the dump into {@code out} (created when absent). */
    public static GeneratedDump generate(Path out, GeneratorOptions options) {
        return generate(out, options, null);
    }

    /**
     * Writes the dump and hands every establishment a correct loader must load, as it must load it
     * without debt files ({@code divida} false; a load reads the dump's {@code debt/} folder when there
     * is one, so compare with a dump generated with a debt share of 0), to {@code expected} (from several
     * threads at once; null for none).
     */
    public static GeneratedDump generate(Path out, GeneratorOptions options, Consumer<Establishment> expected) {
        Objects.requireNonNull(options, "options");
        long start = System.nanoTime();
        String date = options.dateCode();
        Model model = Model.load();
        try {
            Files.createDirectories(out);
            for (Family f : Family.values()) {
                if (f.isLookup()) {
                    writeZip(out, f, 0, date, options, Tables.bundled(Tables.bundledName(f)));
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
                Thread t = new Thread(r, "generator");
                t.setDaemon(true);
                return t;
            });
            List<Future<PartResult>> futures = new ArrayList<>();
            try {
                for (int p = 0; p < PARTS; p++) {
                    long share = options.establishments() / PARTS + (p < options.establishments() % PARTS ? 1 : 0);
                    Part part = new Part(out, p, share, options, model, expected);
                    futures.add(pool.submit(part::run));
                }
                long establishments = 0;
                long rows = 0;
                long companies = 0;
                long debtCompanies = 0;
                long debtRows = 0;
                Map<Quirk, Long> quirks = new EnumMap<>(Quirk.class);
                List<Path> simples = new ArrayList<>();
                List<Path> debt = new ArrayList<>();
                long lastIndex = -1;
                for (Future<PartResult> f : futures) {
                    PartResult r = f.get();
                    lastIndex = Math.max(lastIndex, r.lastIndex);
                    establishments += r.establishments;
                    rows += r.rows;
                    companies += r.companies;
                    r.quirks.forEach((q, n) -> quirks.merge(q, n, Long::sum));
                    simples.add(r.simples);
                    debtCompanies += r.debtCompanies;
                    debtRows += r.debtRows;
                    if (r.debt != null) {
                        debt.add(r.debt);
                    }
                }
                writeSimples(out, date, options, simples);
                // The reference month a load records (X-Dados-Referencia): the extraction date's month.
                Files.writeString(
                        out.resolve(dev.cadastro.loader.LoadOptions.REFERENCE_FILE),
                        java.time.YearMonth.from(options.extractionDate()) + "\n",
                        StandardCharsets.US_ASCII);
                if (!debt.isEmpty()) {
                    PgfnRows.writeZip(out, options, debt, ENTRY_TIME);
                }
                DumpEvolver.writeState(out, options.seed(), nextIndexBase(-1, lastIndex));
                return new GeneratedDump(
                        out,
                        date,
                        establishments,
                        rows,
                        companies,
                        quirks,
                        debtCompanies,
                        debtRows,
                        Duration.ofNanos(System.nanoTime() - start));
            } finally {
                pool.shutdownNow();
                // A failed part must not keep writing into a folder the caller may delete.
                pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            }
        } catch (IOException | ExecutionException | InterruptedException e) {
            throw failure("cannot write the dump into " + out, "writing the dump", e);
        }
    }

    /**
     * What a dump written by parallel parts throws when it fails: a part's own runtime failure as it is,
     * an I/O failure (its own or a part's) as an {@link UncheckedIOException} saying it {@code cannot}, an
     * interruption (the thread's flag set again) as an {@link IllegalStateException} naming what it was
     * {@code doing}.
     */
    static RuntimeException failure(String cannot, String doing, Exception e) {
        return switch (e) {
            case IOException io -> new UncheckedIOException(cannot, io);
            case ExecutionException ee when ee.getCause() instanceof RuntimeException re -> re;
            case ExecutionException ee -> new UncheckedIOException(cannot, new IOException(ee.getCause()));
            case InterruptedException ie -> {
                Thread.currentThread().interrupt();
                yield new IllegalStateException("interrupted while " + doing, ie);
            }
            default -> new IllegalStateException(cannot, e);
        };
    }

    /** The first company index of a later month: above {@code base} and every index used, a multiple of the parts. */
    static long nextIndexBase(long base, long lastIndex) {
        long next = Math.max(base, lastIndex + 1);
        return (next + PARTS - 1) / PARTS * PARTS;
    }

    static final int PART_COUNT = PARTS;

    static long mixSeed(long z) {
        return Part.mix(z);
    }

    static ZipOutputStream openZip(Path out, Family family, int part, String date, GeneratorOptions options)
            throws IOException {
        ZipOutputStream zip = new ZipOutputStream(
                new BufferedOutputStream(Files.newOutputStream(out.resolve(family.zipName(part))), 1 << 16));
        zip.setLevel(options.compressionLevel());
        zip.setMethod(ZipOutputStream.DEFLATED);
        ZipEntry entry = new ZipEntry(family.innerName(part, date));
        entry.setTime(ENTRY_TIME);
        zip.putNextEntry(entry);
        return zip;
    }

    private static void writeZip(Path out, Family f, int part, String date, GeneratorOptions o, byte[] content)
            throws IOException {
        try (ZipOutputStream zip = openZip(out, f, part, date, o)) {
            zip.write(content);
            zip.closeEntry();
        }
    }

    private static void writeSimples(Path out, String date, GeneratorOptions o, List<Path> parts) throws IOException {
        try (ZipOutputStream zip = openZip(out, Family.SIMPLES, 0, date, o)) {
            for (Path p : parts) {
                try (InputStream in = Files.newInputStream(p)) {
                    in.transferTo(zip);
                }
                Files.delete(p);
            }
            zip.closeEntry();
        }
    }

    private record PartResult(
            long establishments,
            long rows,
            long companies,
            Map<Quirk, Long> quirks,
            Path simples,
            long debtCompanies,
            long debtRows,
            Path debt,
            long lastIndex) {}

    /** The fixed tables the distributions draw from. */
    static final class Model {
        final String[] ufs;
        final double[] ufCumulative;
        final Map<String, String[]> municipios;
        final Map<String, double[]> municipioCumulative;
        final Map<String, int[]> ddds = new HashMap<>();
        /** The five-digit CEP prefixes of each state, [from, to). */
        final Map<String, int[]> cepRanges = new HashMap<>();

        final String[] cnaes;
        final double[] cnaeCumulative;

        private Model(Geography geography, String[] cnaes, double[] cnaeCumulative) {
            this.ufs = geography.ufs;
            this.ufCumulative = geography.ufCumulative;
            this.municipios = geography.municipios;
            this.municipioCumulative = geography.municipioCumulative;
            this.cnaes = cnaes;
            this.cnaeCumulative = cnaeCumulative;
        }

        static Model load() {
            // Popular main activities first (retail clothing, hairdressers, snack bars, ...), then the rest.
            List<String> popular = List.of(
                    "4781400", "9602501", "5611203", "4712100", "7319002", "4399103", "8219999", "5620104", "4751201",
                    "4930202", "4744099", "8211300", "5611201", "9430800", "4723700", "8599604", "4520001", "9511800",
                    "4321500", "4772500");
            List<String> all = new ArrayList<>(popular);
            String cnaeText = new String(Tables.bundled("Cnaes.csv"), StandardCharsets.ISO_8859_1);
            for (String line : cnaeText.split("\n")) {
                if (line.length() > 9 && line.charAt(0) == '"') {
                    String code = line.substring(1, 8);
                    if (!popular.contains(code)) {
                        all.add(code);
                    }
                }
            }
            double[] w = new double[all.size()];
            for (int i = 0; i < w.length; i++) {
                w[i] = 1.0 / Math.pow(i + 1, 0.9);
            }
            Model m = new Model(Geography.load(), all.toArray(String[]::new), cumulative(w));
            Map<String, List<Integer>> ddd = new HashMap<>();
            for (int d : Ddd.all()) {
                ddd.computeIfAbsent(Ddd.uf(d), k -> new ArrayList<>()).add(d);
            }
            ddd.forEach((uf, list) ->
                    m.ddds.put(uf, list.stream().mapToInt(Integer::intValue).toArray()));
            String[] ceps = {
                "SP 01000 20000", "RJ 20000 29000", "ES 29000 30000", "MG 30000 40000", "BA 40000 49000",
                "SE 49000 50000", "PE 50000 57000", "AL 57000 58000", "PB 58000 59000", "RN 59000 60000",
                "CE 60000 64000", "PI 64000 65000", "MA 65000 66000", "PA 66000 68900", "AP 68900 69000",
                "AM 69000 69300", "RR 69300 69400", "AC 69900 70000", "DF 70000 72800", "GO 72800 76800",
                "RO 76800 77000", "TO 77000 78000", "MT 78000 78900", "MS 79000 80000", "PR 80000 88000",
                "SC 88000 90000", "RS 90000 100000"
            };
            for (String c : ceps) {
                String[] f = c.split(" ");
                m.cepRanges.put(f[0], new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2])});
            }
            return m;
        }

        static double[] cumulative(double[] w) {
            double[] c = new double[w.length];
            double sum = 0;
            for (int i = 0; i < w.length; i++) {
                sum += w[i];
                c[i] = sum;
            }
            for (int i = 0; i < c.length; i++) {
                c[i] /= sum;
            }
            return c;
        }

        static int pick(double[] cumulative, SplittableRandom rng) {
            double u = rng.nextDouble();
            int lo = 0;
            int hi = cumulative.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cumulative[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** One of the ten parts: Empresas{n}, Estabelecimentos{n}, Socios{n} and its share of Simples. */
    static final class Part {
        private static final String[] FIRST = WordList.FIRST_NAMES.words();
        private static final String[] LAST = WordList.SURNAMES.words();
        private static final String[] BUSINESS = WordList.BUSINESS_WORDS.words();
        private static final String[] FANTASY = WordList.FANTASY_NAMES.words();
        private static final String[] STREET_TYPES = {
            "RUA", "AVENIDA", "TRAVESSA", "ALAMEDA", "ESTRADA", "RODOVIA", "PRACA"
        };
        private static final double[] STREET_TYPE_W = Model.cumulative(new double[] {60, 22, 6, 3, 4, 2, 3});
        private static final String[] STREETS = WordList.STREET_NAMES.words();
        private static final String[] BAIRROS = WordList.NEIGHBOURHOODS.words();
        private static final String[] SUFFIX = {"LTDA", "LTDA", "LTDA", "EIRELI", "S.A.", "LTDA ME", "LTDA EPP"};
        private static final String[] DOMAINS = WordList.EMAIL_DOMAINS.words();
        private static final String[] NATUREZAS = {
            "2062", "2135", "2305", "2240", "3999", "2054", "2046", "2143", "3069", "1244", "2038"
        };
        private static final double[] NATUREZA_W =
                Model.cumulative(new double[] {62, 9, 5, 7, 9, 2, 0.3, 1.5, 1.5, 0.4, 0.3});
        private static final String[] SITUACOES = {"02", "08", "04", "03", "01"};
        private static final double[] SITUACAO_W = Model.cumulative(new double[] {46, 40, 10, 1.5, 2.5});
        private static final Quirk[] ROW_QUIRKS = {
            Quirk.DUPLICATE_LINE,
            Quirk.LINE_FEED_IN_FIELD,
            Quirk.QUOTES_AND_SEPARATOR,
            Quirk.NUL_BYTE,
            Quirk.WIN1252_BYTES,
            Quirk.EMPTY_DATE_VARIANT,
            Quirk.INVALID_DATE,
            Quirk.JUNK_PHONE,
            Quirk.SHIFTED_COLUMN
        };
        private static final Quirk[] COMPANY_QUIRKS = {
            Quirk.CAPITAL_PLACEHOLDER, Quirk.MISSING_COMPANY, Quirk.DUPLICATE_COMPANY_LINE
        };

        private final Path out;
        private final int part;
        private final long target;
        private final GeneratorOptions options;
        private final Model model;
        private final Consumer<Establishment> expected;
        private final SplittableRandom rng;
        private final String date;
        private final int maxEpochDay;
        private final Map<Quirk, Long> quirks = new EnumMap<>(Quirk.class);
        private final RowWriter row = new RowWriter();
        /** Debt draws come from a generator of their own, so they leave the establishments of a seed alone. */
        private final SplittableRandom debtRng;

        private PgfnRows pgfn;
        /** The first company index of this part's run: 0 for a dump, above every earlier one for an evolved month. */
        long indexBase;
        /** When set (an evolved month's openings), every establishment is active and opened in this month. */
        java.time.YearMonth opening;

        Part(Path out, int part, long target, GeneratorOptions options, Model model, Consumer<Establishment> expected) {
            this.out = out;
            this.part = part;
            this.target = target;
            this.options = options;
            this.model = model;
            this.expected = expected;
            this.rng = new SplittableRandom(mix(options.seed() * 31 + part));
            this.debtRng = new SplittableRandom(mix(options.seed() * 37 + part) ^ 0x9F6E_D0B7L);
            this.date = options.dateCode();
            this.maxEpochDay = (int) options.extractionDate().toEpochDay();
        }

        static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        PartResult run() throws IOException {
            Path simplesTemp = Files.createTempFile(out, "simples-part" + part + "-", ".tmp");
            Path debtTemp =
                    options.debtShare() > 0 ? Files.createTempFile(out, "debt-part" + part + "-", ".tmp") : null;
            long[] totals;
            try (ZipOutputStream empresas = openZip(out, Family.EMPRESAS, part, date, options);
                    ZipOutputStream estabelecimentos = openZip(out, Family.ESTABELECIMENTOS, part, date, options);
                    ZipOutputStream socios = openZip(out, Family.SOCIOS, part, date, options);
                    OutputStream simples = new BufferedOutputStream(Files.newOutputStream(simplesTemp), 1 << 16);
                    OutputStream debt = debtTemp == null
                            ? OutputStream.nullOutputStream()
                            : new BufferedOutputStream(Files.newOutputStream(debtTemp), 1 << 16)) {
                pgfn = new PgfnRows(debtRng, debt, options.extractionDate());
                OutputStream emp = new BufferedOutputStream(empresas, 1 << 16);
                OutputStream est = new BufferedOutputStream(estabelecimentos, 1 << 16);
                OutputStream soc = new BufferedOutputStream(socios, 1 << 16);
                totals = produce(emp, est, soc, simples);
                emp.flush();
                est.flush();
                soc.flush();
                empresas.closeEntry();
                estabelecimentos.closeEntry();
                socios.closeEntry();
            }
            return new PartResult(
                    totals[0],
                    totals[1],
                    totals[2],
                    quirks,
                    simplesTemp,
                    pgfn.companies,
                    pgfn.rows,
                    debtTemp,
                    lastIndex);
        }

        /** Writes this part's companies into the given streams; {establishments to load, lines, companies}. */
        long[] produce(OutputStream emp, OutputStream est, OutputStream soc, OutputStream simples) throws IOException {
            if (pgfn == null) {
                pgfn = new PgfnRows(debtRng, OutputStream.nullOutputStream(), options.extractionDate());
            }
            long written = 0;
            long rows = 0;
            long companies = 0;
            long produced = 0;
            for (long j = 0; produced < target; j++) {
                long index = indexBase + part + PARTS * j;
                int branches = rng.nextDouble() < 0.88 ? 1 : 2 + (int) Math.min(30, -Math.log(rng.nextDouble()) * 1.5);
                branches = (int) Math.min(branches, target - produced);
                long[] counts = company(index, branches, emp, est, soc, simples);
                produced += branches;
                written += counts[0];
                rows += counts[1];
                companies += counts[2];
                lastIndex = index;
            }
            return new long[] {written, rows, companies};
        }

        /** The last company index {@link #produce} used (-1 before any). */
        long lastIndex = -1;

        Map<Quirk, Long> quirkCounts() {
            return quirks;
        }

        private void count(Quirk q) {
            quirks.merge(q, 1L, Long::sum);
        }

        private boolean quirk() {
            return options.quirkRate() > 0 && rng.nextDouble() < options.quirkRate();
        }

        /** The root of company {@code index}: a bijection of the index, alphanumeric for a share. */
        private String root(long index) {
            long s = (index * 7_654_321L + 12_345_679L) % 100_000_000L;
            String digits = pad(s, 8);
            if (rng.nextDouble() >= options.alphanumericShare()) {
                return digits;
            }
            int mid = Integer.parseInt(digits.substring(2, 5));
            char[] l = {(char) ('A' + mid / 676), (char) ('A' + (mid / 26) % 26), (char) ('A' + mid % 26)};
            return digits.substring(0, 2) + new String(l) + digits.substring(5);
        }

        private String pick(String[] values) {
            return values[rng.nextInt(values.length)];
        }

        private int day(int fromYear) {
            int from = (int) LocalDate.of(fromYear, 1, 1).toEpochDay();
            return from + rng.nextInt(Math.max(1, maxEpochDay - from));
        }

        private static String yyyymmdd(int epochDay) {
            LocalDate d = LocalDate.ofEpochDay(epochDay);
            return pad(d.getYear() * 10000L + d.getMonthValue() * 100L + d.getDayOfMonth(), 8);
        }

        private static final String[] FOREIGN_FIRST = WordList.FOREIGN_FIRST_NAMES.words();
        private static final String[] FOREIGN_LAST = WordList.FOREIGN_SURNAMES.words();
        /** Estados Unidos, Portugal, Argentina, Alemanha, Italia, Espanha, Japao (the Paises table's codes). */
        private static final String[] FOREIGN_COUNTRIES = {"249", "607", "063", "023", "386", "245", "399"};

        /**
         * One Socios row as the Receita writes it: mostly natural persons (masked CPF, qualification by
         * the legal nature), some companies (a complete CNPJ, age band 0, an administrator representing
         * them), a few foreigners (country code, placeholder document, a proxy representing them) and
         * minors (a parent representing them); no representative is {@code ***000000**} with
         * qualification 00.
         */
        private void partner(
                String root,
                String natureza,
                String name,
                int cpfMiddle,
                int entry,
                int ageBand,
                SplittableRandom side,
                OutputStream soc)
                throws IOException {
            String kind = "2";
            String document = "***" + pad(cpfMiddle, 6) + "**";
            String qualification = personQualification(natureza, side);
            String country = null;
            String repCpf = "***000000**";
            String repName = null;
            String repQualification = "00";
            int band = ageBand;
            double u = side.nextDouble();
            if (u < 0.06) {
                kind = "1";
                name = BUSINESS[side.nextInt(BUSINESS.length)] + " " + FANTASY[side.nextInt(FANTASY.length)]
                        + " PARTICIPACOES LTDA";
                document = Cnpj.withCheckDigits(pad(side.nextLong(100_000_000L), 8) + "0001")
                        .value();
                qualification = "22";
                band = 0;
                repCpf = "***" + pad(side.nextInt(1_000_000), 6) + "**";
                repName = FIRST[side.nextInt(FIRST.length)] + " " + LAST[side.nextInt(LAST.length)];
                repQualification = "05";
            } else if (u < 0.08) {
                kind = "3";
                name = FOREIGN_FIRST[side.nextInt(FOREIGN_FIRST.length)] + " "
                        + FOREIGN_LAST[side.nextInt(FOREIGN_LAST.length)];
                document = side.nextBoolean() ? "***999999**" : null;
                qualification = "38";
                country = FOREIGN_COUNTRIES[side.nextInt(FOREIGN_COUNTRIES.length)];
                repCpf = "***" + pad(side.nextInt(1_000_000), 6) + "**";
                repName = FIRST[side.nextInt(FIRST.length)] + " " + LAST[side.nextInt(LAST.length)];
                repQualification = "17";
            } else if (u < 0.09) {
                qualification = "30";
                band = 1 + side.nextInt(2);
                repCpf = "***" + pad(side.nextInt(1_000_000), 6) + "**";
                repName = FIRST[side.nextInt(FIRST.length)] + " " + name.substring(name.indexOf(' ') + 1);
                repQualification = side.nextBoolean() ? "14" : "15";
            }
            row.field(root)
                    .field(kind)
                    .field(name)
                    .field(document)
                    .field(qualification)
                    .field(yyyymmdd(entry))
                    .field(country)
                    .field(repCpf)
                    .field(repName)
                    .field(repQualification)
                    .field(Integer.toString(band));
            row.end(soc, 1);
        }

        /** A natural person's qualification, as the legal nature makes it likely. */
        private static String personQualification(String natureza, SplittableRandom side) {
            double u = side.nextDouble();
            return switch (natureza) {
                case "2054", "2046" -> u < 0.5 ? "10" : u < 0.75 ? "16" : "08";
                case "3999", "3069" -> u < 0.6 ? "16" : "05";
                case "1244" -> "05";
                default -> u < 0.8 ? "49" : "22";
            };
        }

        /** Writes one company with its establishments; returns {establishments to load, lines, companies}. */
        private long[] company(
                long index, int branches, OutputStream emp, OutputStream est, OutputStream soc, OutputStream simples)
                throws IOException {
            String root = root(index);
            boolean mei = rng.nextDouble() < 0.38;
            String natureza = mei ? "2135" : NATUREZAS[Model.pick(NATUREZA_W, rng)];
            String owner = pick(FIRST) + " " + pick(LAST) + " " + pick(LAST);
            String razao;
            if (mei || natureza.equals("2135")) {
                razao = rng.nextBoolean() ? owner + " " + pad(rng.nextLong(100_000_000_000L), 11) : owner;
            } else if (natureza.equals("3999")) {
                razao = "ASSOCIACAO " + pick(FANTASY) + " DE " + pick(BUSINESS);
            } else if (natureza.equals("1244")) {
                razao = "MUNICIPIO DE " + pick(STREETS);
            } else {
                razao = pick(BUSINESS) + " " + pick(FANTASY) + " " + pick(SUFFIX);
            }
            String qualificacao = natureza.equals("2135") ? "50" : natureza.equals("3999") ? "16" : "49";
            long reais = mei
                    ? 1000 + rng.nextInt(30) * 500
                    : rng.nextDouble() < 0.08 ? 0 : (long) Math.exp(8 + rng.nextDouble() * 8);
            long cents = rng.nextDouble() < 0.9 ? 0 : rng.nextInt(100);
            Long capital = reais * 100 + cents;
            String capitalText = reais + "," + (cents < 10 ? "0" : "") + cents;
            String porte = mei ? "01" : pick(new String[] {"01", "01", "03", "05", "05", "00"});
            String ente = natureza.startsWith("1") ? "SAO PAULO - SP" : null;
            boolean missingCompany = false;
            int companyCopies = 1;
            if (quirk()) {
                Quirk q = COMPANY_QUIRKS[rng.nextInt(COMPANY_QUIRKS.length)];
                count(q);
                switch (q) {
                    case CAPITAL_PLACEHOLDER -> {
                        capital = null;
                        capitalText = rng.nextBoolean() ? "999999999999" : "999999999999,00";
                    }
                    case MISSING_COMPANY -> missingCompany = true;
                    case DUPLICATE_COMPANY_LINE -> companyCopies = 2;
                    default -> throw new IllegalStateException(q.name());
                }
            }
            Company company = null;
            if (!missingCompany) {
                row.field(root)
                        .field(razao)
                        .field(natureza)
                        .field(qualificacao)
                        .field(capitalText)
                        .field(porte)
                        .field(ente);
                row.end(emp, companyCopies);
                company = new Company(razao, natureza, qualificacao, capital, porte, ente);
            }
            SimplesOption option = simples(root, mei, simples);
            if (!mei && !natureza.equals("2135")) {
                int partners = 1 + rng.nextInt(3);
                // The company's generator gives exactly the draws it always gave here, published or not, so
                // a seed keeps producing the same establishments; whether the partners are published, and the
                // rest of each partner, come from a generator of the company's own.
                SplittableRandom side = new SplittableRandom(mix(options.seed() * 131 + index) ^ 0x50C105L);
                boolean published = side.nextDouble() < PUBLISHED_QSA_SHARE;
                for (int i = 0; i < partners; i++) {
                    String name = pick(FIRST) + " " + pick(LAST);
                    int cpfMiddle = rng.nextInt(1_000_000);
                    int entry = day(1990);
                    int ageBand = 2 + rng.nextInt(7);
                    if (published) {
                        partner(root, natureza, name, cpfMiddle, entry, ageBand, side, soc);
                    }
                }
            }
            String uf = model.ufs[Model.pick(model.ufCumulative, rng)];
            pgfn.maybeDebtor(root, razao, uf, options.debtShare());
            long loaded = 0;
            long lines = 0;
            for (int b = 0; b < branches; b++) {
                lines++;
                if (establishment(root, b + 1, uf, razao, mei, company, option, est)) {
                    loaded++;
                }
            }
            return new long[] {loaded, lines, missingCompany ? 0 : 1};
        }

        private SimplesOption simples(String root, boolean mei, OutputStream out) throws IOException {
            Boolean simplesOpt;
            Boolean meiOpt;
            int opcao;
            int exclusao = Integer.MIN_VALUE;
            int opcaoMei = Integer.MIN_VALUE;
            int exclusaoMei = Integer.MIN_VALUE;
            if (mei) {
                simplesOpt = true;
                opcao = day(2009);
                opcaoMei = opcao;
                meiOpt = true;
                if (rng.nextDouble() < 0.12) {
                    meiOpt = false;
                    exclusaoMei = Math.min(maxEpochDay, opcaoMei + 1 + rng.nextInt(3000));
                }
            } else if (rng.nextDouble() < 0.45) {
                opcao = day(2007);
                simplesOpt = rng.nextDouble() < 0.75;
                meiOpt = false;
                if (!simplesOpt) {
                    exclusao = Math.min(maxEpochDay, opcao + 1 + rng.nextInt(3000));
                }
            } else {
                return null;
            }
            row.field(root)
                    .field(simplesOpt ? "S" : "N")
                    .field(yyyymmdd(opcao))
                    .field(dateOrZeros(exclusao))
                    .field(meiOpt ? "S" : "N")
                    .field(dateOrZeros(opcaoMei))
                    .field(dateOrZeros(exclusaoMei));
            row.end(out, 1);
            return new SimplesOption(
                    simplesOpt, date(opcao), date(exclusao), meiOpt, date(opcaoMei), date(exclusaoMei));
        }

        private static String dateOrZeros(int day) {
            return day == Integer.MIN_VALUE ? "00000000" : yyyymmdd(day);
        }

        private static LocalDate date(int day) {
            return day == Integer.MIN_VALUE ? null : LocalDate.ofEpochDay(day);
        }

        /** Writes one Estabelecimentos line; true when a loader must load it. */
        private boolean establishment(
                String root,
                int order,
                String uf,
                String razao,
                boolean mei,
                Company company,
                SimplesOption option,
                OutputStream out)
                throws IOException {
            Quirk q = null;
            if (quirk()) {
                q = ROW_QUIRKS[rng.nextInt(ROW_QUIRKS.length)];
                count(q);
            }
            Cnpj cnpj = Cnpj.withCheckDigits(root + pad(order, 4));
            boolean head = order == 1;
            String fantasia =
                    rng.nextDouble() < 0.45 ? pick(FANTASY) + (rng.nextBoolean() ? " " + pick(BUSINESS) : "") : null;
            byte[] fantasiaRaw = null;
            if (q == Quirk.QUOTES_AND_SEPARATOR) {
                fantasia = "BAR \"DO " + pick(FIRST) + "\"; LANCHES \"24H\"";
            } else if (q == Quirk.WIN1252_BYTES) {
                fantasia = "LOJA \u201CBOA\u201D \u2013 " + pick(FANTASY);
            }
            String situacao = SITUACOES[Model.pick(SITUACAO_W, rng)];
            int abertura = rng.nextDouble() < 0.6 ? day(2015) : day(1960);
            if (opening != null) {
                situacao = "02";
                int first = (int) opening.atDay(1).toEpochDay();
                abertura = first + rng.nextInt(opening.lengthOfMonth());
            }
            int dataSituacao = situacao.equals("02") ? abertura : Math.min(maxEpochDay, abertura + rng.nextInt(4000));
            String dataSituacaoText = yyyymmdd(dataSituacao);
            LocalDate dataSituacaoValue = LocalDate.ofEpochDay(dataSituacao);
            if (q == Quirk.EMPTY_DATE_VARIANT) {
                dataSituacaoText = rng.nextBoolean() ? "0" : "00000000";
                dataSituacaoValue = null;
            }
            String aberturaText = yyyymmdd(abertura);
            LocalDate aberturaValue = LocalDate.ofEpochDay(abertura);
            if (q == Quirk.INVALID_DATE) {
                aberturaText = switch (rng.nextInt(3)) {
                    case 0 -> "2021221";
                    case 1 -> "02020315";
                    default -> "41000101";
                };
                aberturaValue = null;
            }
            String motivo = switch (situacao) {
                case "02" -> "00";
                case "08" -> "01";
                case "04" -> rng.nextBoolean() ? "63" : "71";
                case "03" -> "60";
                default -> "73";
            };
            boolean abroad = rng.nextDouble() < 0.0005;
            String cidadeExterior = abroad ? "MIAMI" : null;
            String pais = abroad ? "249" : null;
            String ufRow = abroad ? "EX" : uf;
            String municipio;
            if (abroad) {
                municipio = "9707";
            } else {
                String[] ms = model.municipios.get(uf);
                municipio = ms[Model.pick(model.municipioCumulative.get(uf), rng)];
            }
            String cnae = model.cnaes[Model.pick(model.cnaeCumulative, rng)];
            List<String> secundarios = new ArrayList<>();
            if (rng.nextDouble() < 0.5) {
                int n = 1 + rng.nextInt(5);
                for (int i = 0; i < n; i++) {
                    String c = model.cnaes[Model.pick(model.cnaeCumulative, rng)];
                    if (!secundarios.contains(c)) {
                        secundarios.add(c);
                    }
                }
            }
            String tipo = STREET_TYPES[Model.pick(STREET_TYPE_W, rng)];
            String logradouro = pick(STREETS);
            byte[] logradouroRaw = null;
            if (q == Quirk.NUL_BYTE) {
                byte[] text = logradouro.getBytes(StandardCharsets.ISO_8859_1);
                logradouroRaw = new byte[text.length + 1];
                int at = 1 + rng.nextInt(text.length - 1);
                System.arraycopy(text, 0, logradouroRaw, 0, at);
                System.arraycopy(text, at, logradouroRaw, at + 1, text.length - at);
            }
            String numero = rng.nextDouble() < 0.08 ? "S/N" : Integer.toString(1 + rng.nextInt(3000));
            String complemento =
                    rng.nextDouble() < 0.3 ? (rng.nextBoolean() ? "SALA " : "LOJA ") + (1 + rng.nextInt(300)) : null;
            if (q == Quirk.LINE_FEED_IN_FIELD) {
                complemento = "BLOCO " + (1 + rng.nextInt(9)) + "\nSALA " + (1 + rng.nextInt(300));
            }
            String bairro = rng.nextDouble() < 0.2 ? "CENTRO" : pick(BAIRROS);
            int[] range = abroad ? new int[] {0, 100_000} : model.cepRanges.get(uf);
            String cep = pad((long) (range[0] + rng.nextInt(range[1] - range[0])) * 1000 + rng.nextInt(1000), 8);
            int[] ddds = model.ddds.getOrDefault(uf, new int[] {11});
            List<PhoneNumber> phones = new ArrayList<>(2);
            String[] phoneText = new String[6];
            if (rng.nextDouble() < 0.72) {
                phone(ddds, phones, phoneText, 0, q == Quirk.JUNK_PHONE);
                if (rng.nextDouble() < 0.18) {
                    phone(ddds, phones, phoneText, 2, false);
                }
            } else if (q == Quirk.JUNK_PHONE) {
                phone(ddds, phones, phoneText, 0, true);
            }
            PhoneNumber fax = null;
            if (rng.nextDouble() < 0.04) {
                List<PhoneNumber> f = new ArrayList<>(1);
                phone(ddds, f, phoneText, 4, false);
                fax = f.isEmpty() ? null : f.get(0);
            }
            String email = null;
            String emailText = null;
            if (rng.nextDouble() < 0.42) {
                email = owner(razao).toLowerCase(Locale.ROOT) + (rng.nextInt(100)) + "@" + pick(DOMAINS);
                emailText = rng.nextDouble() < 0.3 ? email.toUpperCase(Locale.ROOT) : email;
            }
            String especial = null;
            int dataEspecial = Integer.MIN_VALUE;
            if (rng.nextDouble() < 0.002) {
                especial = "RECUPERACAO JUDICIAL";
                dataEspecial = day(2010);
            }
            row.field(cnpj.value().substring(0, 8))
                    .field(cnpj.order())
                    .field(cnpj.checkDigits())
                    .field(head ? "1" : "2");
            if (q == Quirk.WIN1252_BYTES) {
                row.rawField(win1252(fantasia));
            } else {
                row.field(fantasia);
            }
            row.field(situacao)
                    .field(dataSituacaoText)
                    .field(motivo)
                    .field(cidadeExterior)
                    .field(pais)
                    .field(aberturaText)
                    .field(cnae)
                    .field(String.join(",", secundarios))
                    .field(tipo);
            if (logradouroRaw != null) {
                row.rawField(logradouroRaw);
            } else {
                row.field(logradouro);
            }
            if (q == Quirk.SHIFTED_COLUMN) {
                row.field(numero);
            }
            row.field(numero)
                    .field(complemento)
                    .field(bairro)
                    .field(cep)
                    .field(ufRow)
                    .field(municipio);
            for (String p : phoneText) {
                row.field(p);
            }
            row.field(emailText).field(especial).field(especial == null ? null : yyyymmdd(dataEspecial));
            row.end(out, q == Quirk.DUPLICATE_LINE ? 2 : 1);
            if (q == Quirk.SHIFTED_COLUMN) {
                return false;
            }
            if (expected != null) {
                expected.accept(new Establishment(
                        cnpj,
                        head,
                        fantasia,
                        situacao,
                        dataSituacaoValue,
                        motivo,
                        cidadeExterior,
                        pais,
                        aberturaValue,
                        cnae,
                        secundarios,
                        tipo,
                        logradouro,
                        numero,
                        complemento,
                        bairro,
                        cep,
                        ufRow,
                        municipio,
                        phones,
                        fax,
                        email,
                        especial,
                        date(dataEspecial),
                        company,
                        option,
                        false));
            }
            return true;
        }

        /** {@code value} in decimal, left-padded with zeros to {@code width}. */
        static String pad(long value, int width) {
            char[] c = new char[width];
            long v = value;
            for (int i = width - 1; i >= 0; i--) {
                c[i] = (char) ('0' + v % 10);
                v /= 10;
            }
            return new String(c);
        }

        private static byte[] win1252(String s) {
            byte[] b = new byte[s.length()];
            for (int i = 0; i < s.length(); i++) {
                b[i] = dev.cadastro.loader.internal.Latin1.encode(s.charAt(i));
            }
            return b;
        }

        private static String owner(String razao) {
            int space = razao.indexOf(' ');
            String first = space < 0 ? razao : razao.substring(0, space);
            char[] c = first.toCharArray();
            for (int i = 0; i < c.length; i++) {
                if (c[i] < 'A' || c[i] > 'Z') {
                    c[i] = 'x';
                }
            }
            return new String(c);
        }

        /** Fills phone slot {@code slot} (0, 2 or 4 of the six DDD/number fields). */
        private void phone(int[] ddds, List<PhoneNumber> phones, String[] text, int slot, boolean junk) {
            int ddd = ddds[rng.nextInt(ddds.length)];
            String number;
            boolean mobile;
            double u = rng.nextDouble();
            if (u < 0.5) {
                number = "9" + pad(rng.nextInt(100_000_000), 8);
                mobile = true;
            } else if (u < 0.6) {
                number = (6 + rng.nextInt(4)) + pad(rng.nextInt(10_000_000), 7);
                mobile = true;
            } else {
                number = (2 + rng.nextInt(4)) + pad(rng.nextInt(10_000_000), 7);
                mobile = false;
            }
            if (junk) {
                switch (rng.nextInt(3)) {
                    case 0 -> text[slot] = "0000";
                    case 1 -> text[slot] = "069";
                    default -> {
                        text[slot] = pad(ddd, 2);
                        number = "0";
                    }
                }
                text[slot + 1] = number;
                return;
            }
            text[slot] = pad(ddd, 2);
            text[slot + 1] = number;
            phones.add(new PhoneNumber(text[slot], number, mobile));
        }
    }
}
