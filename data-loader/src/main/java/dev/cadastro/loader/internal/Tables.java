package dev.cadastro.loader.internal;

import dev.cadastro.core.register.Lookups;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The code tables: read from a dump's lookup ZIPs, or from the copies bundled with the module (the six
 * tables of a recent dump, byte-exact, and the Receita-to-IBGE municipality table the dump does not
 * carry).
 */
public final class Tables {
    private static final String BUNDLE = "/dev/cadastro/loader/receita/";

    private Tables() {}

    /** The raw bytes of a bundled table: {@code Cnaes.csv}, ..., {@code municipios-receita-ibge.csv}. */
    public static byte[] bundled(String name) {
        try (InputStream in = Tables.class.getResourceAsStream(BUNDLE + name)) {
            if (in == null) {
                throw new IllegalStateException("bundled table " + name + " is missing from the module");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bundled file name of a lookup family: {@code Cnaes.csv}. */
    public static String bundledName(Family family) {
        return family.zipBase() + ".csv";
    }

    /** Code to description, in file order, of a two-column lookup file. */
    public static Map<String, String> codeTable(CsvReader r) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        while (r.next()) {
            if (r.fieldCount() >= 2 && !r.isEmpty(0)) {
                map.putIfAbsent(r.string(0), r.string(1) == null ? "" : r.string(1));
            }
        }
        return map;
    }

    /** The bundled lookups (the tables of a recent dump), for the generator and for tests. */
    public static Lookups bundledLookups() {
        try {
            Map<Family, Map<String, String>> t = new HashMap<>();
            for (Family f : Family.values()) {
                if (f.isLookup()) {
                    t.put(f, codeTable(new CsvReader(new java.io.ByteArrayInputStream(bundled(bundledName(f))))));
                }
            }
            return lookups(t);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds {@link Lookups} from the six dump tables and the bundled IBGE table. */
    public static Lookups lookups(Map<Family, Map<String, String>> tables) {
        Map<String, String> ibge = new HashMap<>();
        Map<String, String> uf = new HashMap<>();
        String text = new String(bundled("municipios-receita-ibge.csv"), StandardCharsets.UTF_8);
        boolean header = true;
        for (String line : text.split("\r?\n")) {
            if (header || line.isBlank()) {
                header = false;
                continue;
            }
            String[] c = line.split(";", -1);
            if (c.length >= 5) {
                if (!c[2].isEmpty()) {
                    ibge.put(c[0], c[2]);
                }
                if (!c[4].isEmpty()) {
                    uf.put(c[0], c[4]);
                }
            }
        }
        return new Lookups(
                tables.getOrDefault(Family.CNAES, Map.of()),
                tables.getOrDefault(Family.MUNICIPIOS, Map.of()),
                tables.getOrDefault(Family.NATUREZAS, Map.of()),
                tables.getOrDefault(Family.MOTIVOS, Map.of()),
                tables.getOrDefault(Family.PAISES, Map.of()),
                tables.getOrDefault(Family.QUALIFICACOES, Map.of()),
                ibge,
                uf);
    }
}
