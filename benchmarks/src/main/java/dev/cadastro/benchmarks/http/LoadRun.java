package dev.cadastro.benchmarks.http;

import dev.cadastro.benchmarks.Flags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flags of an HTTP load run: those every run takes ({@code --home DIR}, {@code --connections N},
 * {@code --seconds S} measured, after {@code --warmup S}) and the run's own, each {@code --name value}.
 *
 * @param home the folder of the run's data
 * @param connections how many clients, each with its own connection (64 unless given)
 * @param seconds how long each measured phase runs
 * @param warmup how long the warm-up before it runs
 * @param given every flag given, by name
 */
record LoadRun(Path home, int connections, int seconds, int warmup, Map<String, String> given) {
    /** Reads {@code args}, refusing a flag that is neither a common one nor one of {@code own}. */
    static LoadRun parse(String[] args, Path home, int seconds, int warmup, List<String> own) {
        List<String> accepted = new ArrayList<>(List.of("--home", "--connections", "--seconds", "--warmup"));
        accepted.addAll(own);
        Map<String, String> given = Flags.pairs(args, accepted);
        return new LoadRun(
                given.containsKey("--home") ? Path.of(given.get("--home")) : home,
                Integer.parseInt(given.getOrDefault("--connections", "64")),
                given.containsKey("--seconds") ? Integer.parseInt(given.get("--seconds")) : seconds,
                given.containsKey("--warmup") ? Integer.parseInt(given.get("--warmup")) : warmup,
                given);
    }

    /** The run's own flag {@code name}, or {@code fallback} when it is not given. */
    String text(String name, String fallback) {
        return given.getOrDefault(name, fallback);
    }

    int integer(String name, int fallback) {
        return given.containsKey(name) ? Integer.parseInt(given.get(name)) : fallback;
    }

    boolean bool(String name, boolean fallback) {
        return given.containsKey(name) ? Boolean.parseBoolean(given.get(name)) : fallback;
    }

    double decimal(String name, double fallback) {
        return given.containsKey(name) ? Double.parseDouble(given.get(name)) : fallback;
    }
}
