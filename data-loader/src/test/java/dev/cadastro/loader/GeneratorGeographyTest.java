package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator's geography against the figures it cites: on a 200,000-establishment dump, the states'
 * shares, the city of São Paulo and the capitals. The oracle reads the cited tables (IBGE, Censo
 * Demográfico 2022 populations; the states' shares of the register) and applies the documented rule of
 * docs/loader.md itself: a listed municipality's share of its state is its population (the capital's
 * times 1.5) over the state's population plus half the capital's.
 */
class GeneratorGeographyTest {
    private static final int ESTABLISHMENTS = 200_000;
    private static final double CAPITAL_WEIGHT = 1.5;

    @TempDir
    static Path tmp;

    /** Establishments per Receita municipality code, and per state. */
    static final Map<String, LongAdder> byMunicipio = new ConcurrentHashMap<>();

    static final Map<String, LongAdder> byUf = new ConcurrentHashMap<>();
    static long total;
    /** uf, capital, population, share of the register (%), from the bundled table. */
    static final Map<String, String[]> states = new LinkedHashMap<>();
    /** uf|IBGE name -> Receita code. */
    static final Map<String, String> codes = new HashMap<>();
    /** uf, name, population of the listed municipalities. */
    static final List<String[]> listed = new ArrayList<>();

    @BeforeAll
    static void generate() {
        DumpGenerator.generate(
                tmp.resolve("dump"),
                GeneratorOptions.builder(ESTABLISHMENTS)
                        .seed(2022)
                        .quirkRate(0)
                        .threads(2)
                        .build(),
                (Establishment e) -> {
                    byMunicipio
                            .computeIfAbsent(e.municipio(), k -> new LongAdder())
                            .increment();
                    byUf.computeIfAbsent(e.uf(), k -> new LongAdder()).increment();
                });
        total = byUf.values().stream().mapToLong(LongAdder::sum).sum();
        for (String[] s : table("/dev/cadastro/loader/generate/estados.csv", 4)) {
            states.put(s[0], s);
        }
        listed.addAll(table("/dev/cadastro/loader/generate/municipios-populosos.csv", 3));
        String ibge = new String(
                DumpFixture.resource("/dev/cadastro/loader/receita/municipios-receita-ibge.csv"),
                StandardCharsets.UTF_8);
        for (String line : ibge.split("\r?\n")) {
            String[] c = line.split(";", -1);
            if (c.length == 5) {
                codes.put(c[4] + "|" + c[3], c[0]);
            }
        }
    }

    @Test
    void writesTheRequestedNumberOfEstablishments() {
        assertEquals(ESTABLISHMENTS, total);
    }

    @Test
    void saoPauloCityIsTheLargestMunicipalityByFar() {
        List<Map.Entry<String, LongAdder>> ranked = ranked(byMunicipio);
        String saoPaulo = code("SP", "São Paulo");
        assertEquals(saoPaulo, ranked.get(0).getKey(), "the largest municipality");
        assertTrue(
                ranked.get(0).getValue().sum() > 2 * ranked.get(1).getValue().sum(),
                "more than twice the second (" + ranked.get(1).getKey() + "): " + ranked.subList(0, 2));
    }

    @Test
    void saoPauloCityShareIsWithinFivePercentOfTheCitedFigures() {
        double expected = expectedShare("SP", "São Paulo");
        double actual = count(code("SP", "São Paulo")) / (double) total;
        assertTrue(Math.abs(actual / expected - 1) <= 0.05, "São Paulo city: " + actual + ", expected " + expected);
        // Censo 2022: 11,451,245 of Brazil's 203,080,756 inhabitants (5.6%); a capital holds more than its
        // share of the population.
        assertTrue(actual > 11_451_245 / 203_080_756.0, "above its share of the population: " + actual);
    }

    @Test
    void eachStateShareIsWithinTenPercentOfItsTableShare() {
        double sum = states.values().stream()
                .mapToDouble(s -> Double.parseDouble(s[3]))
                .sum();
        for (String[] s : states.values()) {
            double expected = Double.parseDouble(s[3]) / sum;
            double actual = byUf.getOrDefault(s[0], new LongAdder()).sum() / (double) total;
            assertTrue(
                    Math.abs(actual - expected) <= Math.max(0.10 * expected, 0.0005),
                    s[0] + ": " + actual + ", expected " + expected);
        }
    }

    @Test
    void eachCapitalIsAmongTheThreeLargestMunicipalitiesOfItsState() {
        for (String[] s : states.values()) {
            String uf = s[0];
            Map<String, LongAdder> ofState = new HashMap<>();
            codes.forEach((key, code) -> {
                if (key.startsWith(uf + "|") && byMunicipio.containsKey(code)) {
                    ofState.put(code, byMunicipio.get(code));
                }
            });
            List<String> top =
                    ranked(ofState).stream().limit(3).map(Map.Entry::getKey).toList();
            assertTrue(top.contains(code(uf, s[1])), uf + ": capital " + s[1] + " not in the top 3 " + top);
        }
    }

    @Test
    void eachLargeListedMunicipalityIsWithinAQuarterOfItsCitedShare() {
        int checked = 0;
        for (String[] m : listed) {
            double expected = expectedShare(m[0], m[1]);
            if (expected * total < 500) {
                continue;
            }
            checked++;
            double actual = count(code(m[0], m[1])) / (double) total;
            assertTrue(
                    Math.abs(actual / expected - 1) <= 0.25,
                    m[1] + " (" + m[0] + "): " + actual + ", expected " + expected);
        }
        assertTrue(checked >= 25, "checked " + checked);
    }

    @Test
    void theTailReachesMostMunicipalities() {
        // 5,570 municipalities; the smallest get a few establishments each at this size.
        assertTrue(byMunicipio.size() > 5_000, "municipalities with establishments: " + byMunicipio.size());
    }

    /** Share of the country the documented rule gives a listed municipality, from the cited figures. */
    private static double expectedShare(String uf, String name) {
        String[] state = states.get(uf);
        double sum = states.values().stream()
                .mapToDouble(s -> Double.parseDouble(s[3]))
                .sum();
        double capital = population(uf, state[1]);
        double weight = population(uf, name) * (name.equals(state[1]) ? CAPITAL_WEIGHT : 1);
        double stateWeight = Double.parseDouble(state[2]) + (CAPITAL_WEIGHT - 1) * capital;
        return Double.parseDouble(state[3]) / sum * weight / stateWeight;
    }

    private static double population(String uf, String name) {
        for (String[] m : listed) {
            if (m[0].equals(uf) && m[1].equals(name)) {
                return Double.parseDouble(m[2]);
            }
        }
        throw new AssertionError(name + " (" + uf + ") is not listed");
    }

    private static String code(String uf, String name) {
        String c = codes.get(uf + "|" + name);
        if (c == null) {
            throw new AssertionError(name + " (" + uf + ") has no Receita code");
        }
        return c;
    }

    private static long count(String code) {
        LongAdder n = byMunicipio.get(code);
        return n == null ? 0 : n.sum();
    }

    private static List<Map.Entry<String, LongAdder>> ranked(Map<String, LongAdder> counts) {
        return counts.entrySet().stream()
                .sorted(Comparator.comparingLong(
                                (Map.Entry<String, LongAdder> e) -> e.getValue().sum())
                        .reversed())
                .toList();
    }

    private static List<String[]> table(String resource, int columns) {
        List<String[]> rows = new ArrayList<>();
        boolean header = true;
        for (String line : new String(DumpFixture.resource(resource), StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (header) {
                header = false;
                continue;
            }
            String[] c = line.split(";", -1);
            assertEquals(columns, c.length, line);
            rows.add(c);
        }
        return rows;
    }
}
