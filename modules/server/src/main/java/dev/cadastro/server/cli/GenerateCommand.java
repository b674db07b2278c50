package dev.cadastro.server.cli;

import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code ./cadastro generate --out DIR --establishments N [--seed S]}: writes a synthetic dump in
 * exactly the Receita Federal's layout.
 */
public final class GenerateCommand implements Command {
    @Override
    public String name() {
        return "generate";
    }

    @Override
    public String summary() {
        return "--out DIR --establishments N [--seed S] [--quirk-rate R] [--threads T]"
                + "  write a synthetic Receita Federal dump";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        LoadCommand.Flags flags =
                LoadCommand.Flags.parse(args, Set.of("out", "establishments", "seed", "quirk-rate", "threads"), 0);
        Path dir = flags.path("out", true);
        if (!flags.has("establishments")) {
            throw new UsageException("--establishments is required");
        }
        GeneratorOptions.Builder builder = GeneratorOptions.builder(flags.number("establishments", 1, 100_000_000));
        if (flags.has("seed")) {
            builder.seed(flags.number("seed", Long.MIN_VALUE, Long.MAX_VALUE));
        }
        if (flags.has("threads")) {
            builder.threads(flags.integer("threads", 1, 10));
        }
        if (flags.has("quirk-rate")) {
            try {
                builder.quirkRate(Double.parseDouble(flags.text("quirk-rate")));
            } catch (NumberFormatException e) {
                throw new UsageException("--quirk-rate " + flags.text("quirk-rate") + " is not a number");
            }
        }
        GeneratorOptions options;
        try {
            options = builder.build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        GeneratedDump dump = DumpGenerator.generate(dir, options);
        long quirks = dump.quirks().values().stream().mapToLong(Long::longValue).sum();
        out.println(String.format(
                Locale.ROOT,
                "wrote %s: dump %s, %,d establishments (%,d lines), %,d companies, %,d quirk rows, in %s",
                dir,
                dump.dateCode(),
                dump.establishments(),
                dump.establishmentRows(),
                dump.companies(),
                quirks,
                LoadCommand.duration(dump.elapsed())));
        return 0;
    }
}
