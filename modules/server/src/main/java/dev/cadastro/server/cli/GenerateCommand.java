package dev.cadastro.server.cli;

import dev.cadastro.loader.generate.DumpEvolver;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./cadastro generate}: writes a synthetic dump in exactly the Receita Federal's layout. */
@Command(
        name = "generate",
        description = "Write a synthetic Receita Federal dump (the real ZIP names and format) of N establishments.")
public final class GenerateCommand extends CliCommand {
    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Folder to write the ZIPs to.")
    String out;

    @Option(
            names = "--establishments",
            paramLabel = "N",
            description = "Establishments to generate, 1 to 100_000_000 (required unless --evolve-from).")
    Long establishments;

    @Option(
            names = "--evolve-from",
            paramLabel = "DIR",
            description = "Write the month after the dump in DIR (its rows changed at monthly rates, the month's"
                    + " openings added) instead of a new dump; needs --reference.")
    String evolveFrom;

    @Option(
            names = "--reference",
            paramLabel = "YYYY-MM",
            description = "With --evolve-from: the new dump's reference month, after DIR's.")
    String reference;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "Seed of the generator: the same seed writes the same dump (default: the generator's).")
    Long seed;

    @Option(
            names = "--quirk-rate",
            paramLabel = "R",
            description = "Share of rows carrying one of the real dump's quirks, 0 to 1 (default: the generator's).")
    Double quirkRate;

    @Option(names = "--threads", paramLabel = "T", description = "Writer threads, 1 to 10 (default: the generator's).")
    Integer threads;

    @Override
    public Integer call() {
        var dir = path("--out", out);
        var from = path("--evolve-from", evolveFrom);
        if (from != null && establishments != null) {
            throw usage(
                    "--establishments and --evolve-from exclude each other (an evolved month's size follows from DIR)");
        }
        if (from == null && establishments == null) {
            throw usage("--establishments N is required (or --evolve-from DIR --reference YYYY-MM)");
        }
        if ((from == null) != (reference == null)) {
            throw usage("--evolve-from and --reference go together");
        }
        GeneratorOptions.Builder builder =
                GeneratorOptions.builder(from != null ? 1 : within("--establishments", establishments, 1, 100_000_000));
        if (seed != null) {
            builder.seed(seed);
        }
        if (threads != null) {
            builder.threads((int) within("--threads", threads, 1, 10));
        }
        if (quirkRate != null) {
            builder.quirkRate(quirkRate);
        }
        GeneratorOptions options;
        try {
            options = builder.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (from != null) {
            return evolve(from, dir, options);
        }
        GeneratedDump dump = DumpGenerator.generate(dir, options);
        long quirks = dump.quirks().values().stream().mapToLong(Long::longValue).sum();
        out().println(String.format(
                Locale.ROOT,
                "wrote %s: dump %s, %,d establishments (%,d lines), %,d companies, %,d quirk rows, in %s",
                dir,
                dump.dateCode(),
                dump.establishments(),
                dump.establishmentRows(),
                dump.companies(),
                quirks,
                LoadCommand.duration(dump.elapsed())));
        if (dump.debtDir() != null) {
            out().println(String.format(
                    Locale.ROOT,
                    "wrote %s: synthetic PGFN active-debt files, %,d companies with debt (%,d rows);"
                            + " ./cadastro load --dump %s reads them",
                    dump.debtDir(),
                    dump.debtCompanies(),
                    dump.debtRows(),
                    dir));
        }
        return Cli.DONE;
    }

    private Integer evolve(java.nio.file.Path from, java.nio.file.Path dir, GeneratorOptions options) {
        java.time.YearMonth month;
        try {
            month = java.time.YearMonth.parse(reference);
        } catch (java.time.format.DateTimeParseException e) {
            throw usage("--reference " + reference + " is not a month (YYYY-MM)");
        }
        DumpEvolver.EvolvedDump evolved;
        try {
            evolved = DumpEvolver.evolve(from, dir, month, options);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        GeneratedDump dump = evolved.dump();
        StringBuilder applied = new StringBuilder();
        evolved.applied()
                .forEach((kind, n) -> applied.append(applied.isEmpty() ? "" : ", ")
                        .append(kind.name().toLowerCase(Locale.ROOT))
                        .append(' ')
                        .append(String.format(Locale.ROOT, "%,d", n)));
        out().println(String.format(
                Locale.ROOT,
                "wrote %s: dump %s (%s, after %s), %,d establishments (%,d lines), in %s; changed rows: %s",
                dir,
                dump.dateCode(),
                evolved.reference(),
                evolved.from(),
                dump.establishments(),
                dump.establishmentRows(),
                LoadCommand.duration(dump.elapsed()),
                applied));
        return Cli.DONE;
    }
}
