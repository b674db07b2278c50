package dev.cadastro.server.cli;

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
            required = true,
            description = "Establishments to generate, 1 to 100_000_000.")
    long establishments;

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
        GeneratorOptions.Builder builder =
                GeneratorOptions.builder(within("--establishments", establishments, 1, 100_000_000));
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
}
