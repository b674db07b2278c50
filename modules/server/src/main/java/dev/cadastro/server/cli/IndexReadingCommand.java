package dev.cadastro.server.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** A command that reads one register index, named by {@code --index DIR} ({@code lookup}, {@code search}). */
abstract class IndexReadingCommand extends CliCommand {
    @Option(names = "--index", paramLabel = "DIR", required = true, description = "The register index to read.")
    String index;

    /** The index's folder; a blank {@code --index} is a usage error. */
    final Path indexDir() {
        return path("--index", index);
    }
}
