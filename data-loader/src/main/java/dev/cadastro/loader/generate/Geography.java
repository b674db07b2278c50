package dev.cadastro.loader.generate;

import dev.cadastro.loader.internal.Tables;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Where the synthetic establishments are: each state's share of the register and each municipality's
 * weight within its state, built from the tables bundled beside this class.
 *
 * <ul>
 *   <li>{@code estados.csv}: per state, its share of the register's establishments, its capital and its
 *       population (IBGE, Censo Demográfico 2022).
 *   <li>{@code municipios-populosos.csv}: the capitals and the most populous municipalities of each
 *       state with their population (IBGE, Censo Demográfico 2022).
 * </ul>
 *
 * <p>The rule: a municipality's weight is its population, times {@link #CAPITAL_WEIGHT} for the state
 * capital (capitals concentrate services, head offices and the accountants that register companies).
 * The state's other municipalities, whose populations are not bundled, share what the listed ones leave
 * of the state's population along a Zipf tail {@code c / (i + k)}, in a fixed pseudo-random order, with
 * {@code k} the smallest offset (at least 1) that keeps the tail's largest member at or below
 * {@link #TAIL_CAP} of the smallest listed municipality. So within a state the weights sum to its
 * population plus the capital's bonus, and a municipality's expected share of the country is {@code
 * stateShare * weight / (statePopulation + (CAPITAL_WEIGHT - 1) * capitalPopulation)}, which is what
 * the geography test checks against the cited figures.
 */
final class Geography {
    /** The weight of a state capital per inhabitant, relative to the state's other municipalities. */
    static final double CAPITAL_WEIGHT = 1.5;
    /** The tail's largest municipality is at most this share of the smallest listed one. */
    static final double TAIL_CAP = 0.9;

    private static final String BUNDLE = "/dev/cadastro/loader/generate/";

    /** The states, largest share first. */
    final String[] ufs;
    /** Cumulative shares of {@link #ufs}, ending at 1. */
    final double[] ufCumulative;
    /** Receita municipality codes of each state, listed municipalities first. */
    final Map<String, String[]> municipios = new HashMap<>();
    /** Cumulative weights of {@link #municipios}, ending at 1. */
    final Map<String, double[]> municipioCumulative = new HashMap<>();

    private Geography(String[] ufs, double[] ufCumulative) {
        this.ufs = ufs;
        this.ufCumulative = ufCumulative;
    }

    static Geography load() {
        List<String[]> states = rows("estados.csv", 4);
        String[] ufs = new String[states.size()];
        double[] shares = new double[states.size()];
        for (int i = 0; i < ufs.length; i++) {
            ufs[i] = states.get(i)[0];
            shares[i] = Double.parseDouble(states.get(i)[3]);
        }
        Geography g = new Geography(ufs, DumpGenerator.Model.cumulative(shares));

        // Receita code and IBGE name of every municipality, by state, in the bundled table's order.
        Map<String, Map<String, String>> byUf = new HashMap<>();
        String ibge = new String(Tables.bundled("municipios-receita-ibge.csv"), StandardCharsets.UTF_8);
        boolean header = true;
        for (String line : ibge.split("\r?\n")) {
            if (header) {
                header = false;
                continue;
            }
            String[] c = line.split(";", -1);
            if (c.length >= 5 && !c[4].isEmpty()) {
                byUf.computeIfAbsent(c[4], k -> new LinkedHashMap<>()).put(c[3], c[0]);
            }
        }
        Map<String, List<String[]>> listed = new HashMap<>();
        for (String[] m : rows("municipios-populosos.csv", 3)) {
            listed.computeIfAbsent(m[0], k -> new ArrayList<>()).add(m);
        }
        SplittableRandom fixed = new SplittableRandom(42);
        for (String[] state : states) {
            String uf = state[0];
            String capital = state[1];
            double population = Double.parseDouble(state[2]);
            Map<String, String> codes = new LinkedHashMap<>(byUf.getOrDefault(uf, Map.of()));
            List<String> order = new ArrayList<>();
            List<Double> weights = new ArrayList<>();
            double listedPopulation = 0;
            double smallest = Double.MAX_VALUE;
            boolean capitalListed = false;
            for (String[] m : listed.getOrDefault(uf, List.of())) {
                String code = codes.remove(m[1]);
                if (code == null) {
                    throw new IllegalStateException("municipios-populosos.csv names " + m[1] + " (" + uf
                            + "), which the bundled municipality table lacks");
                }
                double p = Double.parseDouble(m[2]);
                boolean isCapital = m[1].equals(capital);
                capitalListed |= isCapital;
                order.add(code);
                weights.add(p * (isCapital ? CAPITAL_WEIGHT : 1));
                listedPopulation += p;
                smallest = Math.min(smallest, p);
            }
            if (!capitalListed) {
                throw new IllegalStateException("municipios-populosos.csv lacks the capital " + capital + " of " + uf);
            }
            List<String> rest = new ArrayList<>(codes.values());
            for (int i = rest.size() - 1; i > 0; i--) {
                int j = fixed.nextInt(i + 1);
                String t = rest.get(i);
                rest.set(i, rest.get(j));
                rest.set(j, t);
            }
            double[] tail = zipfTail(rest.size(), Math.max(0, population - listedPopulation), TAIL_CAP * smallest);
            for (int i = 0; i < tail.length; i++) {
                order.add(rest.get(i));
                weights.add(tail[i]);
            }
            double[] w = new double[weights.size()];
            for (int i = 0; i < w.length; i++) {
                w[i] = weights.get(i);
            }
            g.municipios.put(uf, order.toArray(String[]::new));
            g.municipioCumulative.put(uf, DumpGenerator.Model.cumulative(w));
        }
        return g;
    }

    /**
     * {@code n} values {@code c / (i + k)} summing to {@code total}, the first at most {@code cap}: k is 1
     * when that already holds, otherwise the k (found by bisection) that makes the first exactly {@code
     * cap}; equal shares when even those exceed the cap.
     */
    static double[] zipfTail(int n, double total, double cap) {
        double[] v = new double[n];
        if (n == 0 || total <= 0) {
            return v;
        }
        double k = 1;
        if (first(n, total, 1) > cap) {
            if (total / n >= cap) {
                java.util.Arrays.fill(v, total / n);
                return v;
            }
            double lo = 1;
            double hi = 2;
            while (first(n, total, hi) > cap) {
                hi *= 2;
            }
            for (int it = 0; it < 100; it++) {
                double mid = (lo + hi) / 2;
                if (first(n, total, mid) > cap) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            k = hi;
        }
        double c = total / harmonic(n, k);
        for (int i = 0; i < n; i++) {
            v[i] = c / (i + k);
        }
        return v;
    }

    private static double first(int n, double total, double k) {
        return total / harmonic(n, k) / k;
    }

    private static double harmonic(int n, double k) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += 1 / (i + k);
        }
        return s;
    }

    /** The data rows of a bundled table: {@code #} comments and the header skipped, UTF-8, {@code ;}. */
    static List<String[]> rows(String name, int columns) {
        String text;
        try (InputStream in = Geography.class.getResourceAsStream(BUNDLE + name)) {
            if (in == null) {
                throw new IllegalStateException("bundled table " + name + " is missing from the module");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled table " + name, e);
        }
        List<String[]> rows = new ArrayList<>();
        boolean header = true;
        for (String line : text.split("\r?\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (header) {
                header = false;
                continue;
            }
            String[] c = line.split(";", -1);
            if (c.length != columns) {
                throw new IllegalStateException("bundled table " + name + " has a line of " + c.length
                        + " columns, not " + columns + ": " + line);
            }
            rows.add(c);
        }
        return rows;
    }
}
