package dev.cadastro.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --name value} flags of a benchmark's command line. */
public final class Flags {
    private Flags() {}

    /** The value after the first {@code --name}, or {@code fallback} when the flag is not given. */
    public static String value(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--" + name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    /** Every {@code --name value} pair, by name (a name given twice keeps its last value). */
    public static Map<String, String> pairs(String[] args) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            pairs.put(args[i], args[i + 1]);
        }
        return pairs;
    }

    /** {@link #pairs(String[])}, refusing a name that is not one of {@code accepted}. */
    public static Map<String, String> pairs(String[] args, List<String> accepted) {
        Map<String, String> pairs = pairs(args);
        for (String name : pairs.keySet()) {
            if (!accepted.contains(name)) {
                throw new IllegalArgumentException(
                        "unknown option " + name + "; accepted: " + String.join(", ", accepted));
            }
        }
        return pairs;
    }
}
