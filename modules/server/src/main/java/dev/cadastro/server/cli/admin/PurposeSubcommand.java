package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Purpose;
import picocli.CommandLine.Option;

/** An admin subcommand on one purpose of one account ({@code contract-purpose}, {@code remove-purpose}). */
public abstract class PurposeSubcommand extends AccountSubcommand {
    @Option(names = "--purpose", paramLabel = "P", required = true, description = "One of ${COMPLETION-CANDIDATES}.")
    Purpose purpose;
}
