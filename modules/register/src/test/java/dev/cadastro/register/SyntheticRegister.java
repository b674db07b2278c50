package dev.cadastro.register;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Ddd;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A deterministic generator of establishments with the register's real skew: states by their share of
 * establishments, municipalities Zipf-distributed within the state with the capital first, CNAEs
 * Zipf-distributed over the real CNAE table, statuses, sizes, legal natures, MEI and Simples, phones
 * with the state's area codes, opening dates skewed to recent years and share capital at round amounts.
 * The lookup tables are the real Receita tables (copied into the test resources). Reused by the
 * benchmarks through the test jar.
 */
public final class SyntheticRegister {
    private static final Lookups LOOKUPS = loadLookups();
    private static final String[] UFS = {
        "SP", "MG", "RJ", "RS", "PR", "SC", "BA", "GO", "PE", "CE", "PA", "ES", "MT", "DF", "MS", "MA", "PB", "RN",
        "AL", "PI", "AM", "SE", "RO", "TO", "AC", "AP", "RR"
    };
    private static final double[] UF_WEIGHTS = {
        28, 11, 8.5, 6.5, 6.5, 4.5, 5, 3.5, 3.5, 3.5, 2.5, 2, 2, 2, 1.5, 2, 1.5, 1.5, 1, 1.2, 1.2, 0.8, 0.8, 0.6, 0.3,
        0.3, 0.3
    };
    private static final Map<String, String> CAPITALS_IBGE = Map.ofEntries(
            Map.entry("AC", "1200401"),
            Map.entry("AL", "2704302"),
            Map.entry("AM", "1302603"),
            Map.entry("AP", "1600303"),
            Map.entry("BA", "2927408"),
            Map.entry("CE", "2304400"),
            Map.entry("DF", "5300108"),
            Map.entry("ES", "3205309"),
            Map.entry("GO", "5208707"),
            Map.entry("MA", "2111300"),
            Map.entry("MG", "3106200"),
            Map.entry("MS", "5002704"),
            Map.entry("MT", "5103403"),
            Map.entry("PA", "1501402"),
            Map.entry("PB", "2507507"),
            Map.entry("PE", "2611606"),
            Map.entry("PI", "2211001"),
            Map.entry("PR", "4106902"),
            Map.entry("RJ", "3304557"),
            Map.entry("RN", "2408102"),
            Map.entry("RO", "1100205"),
            Map.entry("RR", "1400100"),
            Map.entry("RS", "4314902"),
            Map.entry("SC", "4205407"),
            Map.entry("SE", "2800308"),
            Map.entry("SP", "3550308"),
            Map.entry("TO", "1721000"));
    private static final String[] NATUREZAS = {"2135", "2062", "2305", "2240", "3999", "2054", "1244", "2143", "3069"};
    private static final double[] NATUREZA_WEIGHTS = {45, 35, 5, 2, 5, 1, 1, 3, 3};
    private static final String[] SITUACOES = {"08", "02", "04", "03", "01"};
    private static final double[] SITUACAO_WEIGHTS = {40, 45, 10, 2, 3};
    private static final String[] PORTES = {"01", "05", "03", "00"};
    private static final double[] PORTE_WEIGHTS = {60, 20, 8, 12};
    private static final String[] BAIRROS = {
        "CENTRO", "JARDIM AMÉRICA", "VILA NOVA", "SÃO JOSÉ", "BELA VISTA", "CENTRO HISTORICO", "JARDIM PAULISTA",
        "BOA VIAGEM", "COPACABANA", "SAVASSI", "ZONA RURAL", "DISTRITO INDUSTRIAL", "Santa Cecília", "Liberdade"
    };
    private static final String[] TIPOS = {"RUA", "AVENIDA", "TRAVESSA", "ALAMEDA", "RODOVIA"};

    private final SplittableRandom random;
    private final Map<String, double[]> municipioCdf = new HashMap<>();
    private final Map<String, List<String>> municipiosByUf = new HashMap<>();
    private final Map<String, int[]> dddsByUf = new HashMap<>();
    private final List<String> cnaes;
    private final double[] cnaeCdf;
    private final double[] ufCdf = cdf(UF_WEIGHTS);
    private final double[] naturezaCdf = cdf(NATUREZA_WEIGHTS);
    private final double[] situacaoCdf = cdf(SITUACAO_WEIGHTS);
    private final double[] porteCdf = cdf(PORTE_WEIGHTS);
    private final double[] bairroCdf;
    private long counter;
    private String lastRoot;
    private int lastOrder;

    public SyntheticRegister(long seed) {
        this(seed, 0);
    }

    /**
     * A generator whose CNPJ roots start at the {@code firstCounter}-th root: generators given disjoint
     * counter ranges (below 100 million in all) never produce the same CNPJ, so several threads can
     * generate one register.
     */
    public SyntheticRegister(long seed, long firstCounter) {
        this.counter = firstCounter;
        this.random = new SplittableRandom(seed);
        // Fixed permutations (not the seed's): the skew is a property of the data set, not of the run.
        SplittableRandom shape = new SplittableRandom(42);
        Map<String, String> ibgeToReceita = new HashMap<>();
        for (Map.Entry<String, String> e : LOOKUPS.municipiosIbge().entrySet()) {
            ibgeToReceita.put(e.getValue(), e.getKey());
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(LOOKUPS.municipiosUf()).entrySet()) {
            municipiosByUf.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        for (Map.Entry<String, List<String>> e : municipiosByUf.entrySet()) {
            List<String> list = e.getValue();
            shuffle(list, shape);
            String capital = ibgeToReceita.get(CAPITALS_IBGE.get(e.getKey()));
            if (capital != null && list.remove(capital)) {
                list.add(0, capital);
            }
            municipioCdf.put(e.getKey(), zipfCdf(list.size(), 1.1));
        }
        for (int d : Ddd.all()) {
            String uf = Ddd.uf(d);
            int[] old = dddsByUf.getOrDefault(uf, new int[0]);
            int[] now = java.util.Arrays.copyOf(old, old.length + 1);
            now[old.length] = d;
            dddsByUf.put(uf, now);
        }
        cnaes = new ArrayList<>(new java.util.TreeSet<>(LOOKUPS.cnaes().keySet()));
        shuffle(cnaes, shape);
        cnaeCdf = zipfCdf(cnaes.size(), 1.0);
        bairroCdf = zipfCdf(BAIRROS.length, 1.2);
    }

    /** The real Receita lookup tables (CNAEs, municipalities with IBGE codes and states, legal natures). */
    public static Lookups lookups() {
        return LOOKUPS;
    }

    /** CNAEs by descending frequency in the generated data (the Zipf rank order). */
    public List<String> cnaesByFrequency() {
        return List.copyOf(cnaes);
    }

    /** Municipalities of a state by descending frequency. */
    public List<String> municipiosByFrequency(String uf) {
        return List.copyOf(municipiosByUf.get(uf));
    }

    /** The next establishment; CNPJs never repeat within one generator. */
    public Establishment next() {
        counter++;
        String root;
        int order;
        if (lastRoot != null && random.nextDouble() < 0.08 && lastOrder < 9999) {
            root = lastRoot;
            order = lastOrder + 1;
        } else {
            root = root(counter);
            order = 1;
        }
        lastRoot = root;
        lastOrder = order;
        Cnpj cnpj = Cnpj.withCheckDigits(root + String.format("%04d", order));
        String uf = UFS[pick(ufCdf)];
        List<String> muns = municipiosByUf.get(uf);
        String municipio = muns.get(pick(municipioCdf.get(uf)));
        if (random.nextDouble() < 0.0005) {
            uf = "EX";
            municipio = "9707";
        }
        String natureza = NATUREZAS[pick(naturezaCdf)];
        String cnae = cnaes.get(pick(cnaeCdf));
        List<String> secundarios = new ArrayList<>();
        if (random.nextDouble() < 0.5) {
            int n = 1 + random.nextInt(5);
            for (int i = 0; i < n; i++) {
                String c = cnaes.get(pick(cnaeCdf));
                if (!c.equals(cnae) && !secundarios.contains(c)) {
                    secundarios.add(c);
                }
            }
        }
        List<Establishment.PhoneNumber> phones = new ArrayList<>();
        if (random.nextDouble() < 0.75 && dddsByUf.containsKey(uf)) {
            int[] ddds = dddsByUf.get(uf);
            int phonesCount = random.nextDouble() < 0.25 ? 2 : 1;
            for (int i = 0; i < phonesCount; i++) {
                String ddd = Integer.toString(ddds[random.nextInt(ddds.length)]);
                boolean mobile = random.nextDouble() < 0.5;
                String number = mobile
                        ? "9" + String.format("%08d", random.nextInt(100_000_000))
                        : (2 + random.nextInt(4)) + String.format("%07d", random.nextInt(10_000_000));
                phones.add(new Establishment.PhoneNumber(ddd, number, mobile));
            }
        }
        LocalDate abertura = null;
        if (random.nextDouble() > 0.02) {
            double yearsAgo = -Math.log(1 - random.nextDouble()) * 10;
            int year = Math.max(1901, 2026 - (int) yearsAgo);
            abertura = LocalDate.of(year, 1, 1).plusDays(random.nextInt(year == 2026 ? 200 : 365));
        }
        Long capital = null;
        double c = random.nextDouble();
        if (c < 0.15) {
            capital = 0L;
        } else if (c > 0.03 + 0.15) {
            double reais = Math.exp(Math.log(10_000) + random.nextGaussian() * 2.3);
            if (random.nextDouble() < 0.6) {
                double mag = Math.pow(10, Math.floor(Math.log10(Math.max(1, reais))));
                reais = Math.round(reais / mag) * mag;
            }
            capital = Math.min(99_999_999_999_00L, Math.round(reais * 100));
        }
        boolean mei = natureza.equals("2135") && random.nextDouble() < 0.5;
        Establishment.SimplesOption simples = random.nextDouble() < 0.7
                ? new Establishment.SimplesOption(
                        mei || random.nextDouble() < 0.4,
                        null,
                        null,
                        mei ? Boolean.TRUE : random.nextDouble() < 0.9 ? Boolean.FALSE : null,
                        null,
                        null)
                : null;
        Establishment.Company company = random.nextDouble() < 0.995
                ? new Establishment.Company(
                        "EMPRESA " + root + " LTDA", natureza, "49", capital, PORTES[pick(porteCdf)], null)
                : null;
        String bairro = random.nextDouble() < 0.97 ? BAIRROS[pick(bairroCdf)] : null;
        return new Establishment(
                cnpj,
                order == 1,
                random.nextDouble() < 0.4 ? "FANTASIA " + counter : null,
                SITUACOES[pick(situacaoCdf)],
                null,
                "00",
                null,
                null,
                abertura,
                cnae,
                secundarios,
                TIPOS[random.nextInt(TIPOS.length)],
                "DAS FLORES " + random.nextInt(500),
                random.nextDouble() < 0.1 ? "S/N" : Integer.toString(1 + random.nextInt(3000)),
                random.nextDouble() < 0.3 ? "SALA " + (1 + random.nextInt(50)) : null,
                bairro,
                String.format("%08d", random.nextInt(100_000_000)),
                uf,
                municipio,
                phones,
                null,
                random.nextDouble() < 0.55 ? "contato" + counter + "@exemplo.com.br" : null,
                null,
                null,
                company,
                simples,
                random.nextDouble() < 0.06);
    }

    /** A unique 8-character root for each counter value; about 2% alphanumeric. */
    private String root(long n) {
        long v = (n * 48_271L + 12_345L) % 100_000_000L;
        String digits = String.format("%08d", v);
        if (Math.floorMod(n * 7919, 50) == 0) {
            char[] c = digits.toCharArray();
            c[2] = (char) ('A' + (int) (n % 26));
            c[5] = (char) ('A' + (int) ((n / 26) % 26));
            return new String(c);
        }
        return digits;
    }

    private int pick(double[] cdf) {
        double u = random.nextDouble();
        int i = java.util.Arrays.binarySearch(cdf, u);
        i = i < 0 ? -i - 1 : i;
        return Math.min(i, cdf.length - 1);
    }

    private static double[] cdf(double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double[] out = new double[weights.length];
        double acc = 0;
        for (int i = 0; i < weights.length; i++) {
            acc += weights[i] / sum;
            out[i] = acc;
        }
        out[out.length - 1] = 1.0;
        return out;
    }

    private static double[] zipfCdf(int n, double s) {
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = 1.0 / Math.pow(i + 1, s);
        }
        return cdf(w);
    }

    private static <T> void shuffle(List<T> list, SplittableRandom r) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            T t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }

    private static Lookups loadLookups() {
        Map<String, String> municipios = new LinkedHashMap<>();
        Map<String, String> ibge = new LinkedHashMap<>();
        Map<String, String> ufs = new LinkedHashMap<>();
        for (String[] row : csv("municipios-receita-ibge.csv", ";", true)) {
            municipios.put(row[0], row[1]);
            if (row.length >= 5 && !row[2].isEmpty()) {
                ibge.put(row[0], row[2]);
                ufs.put(row[0], row[4]);
            }
        }
        Map<String, String> cnaes = new LinkedHashMap<>();
        for (String[] row : csv("Cnaes.csv", "\";\"", false)) {
            cnaes.put(unquote(row[0]), unquote(row[1]));
        }
        Map<String, String> naturezas = new LinkedHashMap<>();
        for (String[] row : csv("Naturezas.csv", "\";\"", false)) {
            naturezas.put(unquote(row[0]), unquote(row[1]));
        }
        return new Lookups(cnaes, municipios, naturezas, Map.of("00", "SEM MOTIVO"), Map.of(), Map.of(), ibge, ufs);
    }

    private static String unquote(String s) {
        return s.replace("\"", "");
    }

    private static List<String[]> csv(String name, String separator, boolean header) {
        try (InputStream in = SyntheticRegister.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String[]> out = new ArrayList<>();
            String line;
            boolean first = true;
            while ((line = r.readLine()) != null) {
                if (first && header) {
                    first = false;
                    continue;
                }
                if (!line.isBlank()) {
                    out.add(line.split(java.util.regex.Pattern.quote(separator), -1));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
