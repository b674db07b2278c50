package dev.cadastro.server.cli;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.document.Violation;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./cadastro validate DOC...}: says for each argument whether it is a valid CPF or CNPJ, with
 * its canonical and formatted forms, or which rule it breaks. The shape decides which document an
 * argument is read as (see {@link TaxId#parse}). Exit status 0 when every argument is valid, 1 when
 * any is not, 2 when none is given.
 */
@Command(
        name = "validate",
        description = {
            "Tell whether each DOC is a valid CPF or CNPJ (numeric or alphanumeric), with its canonical and"
                    + " formatted forms, or which rule it breaks.",
            "11 digits or NNN.NNN.NNN-NN are read as a CPF; 14 characters or NN.NNN.NNN/NNNN-NN as a CNPJ.",
            "Exit status: 0 all valid, 1 any invalid, 2 usage error."
        })
public final class ValidateCommand extends CliCommand {

    @Parameters(
            paramLabel = "DOC",
            arity = "1..*",
            description = "A CPF or CNPJ, with or without punctuation, for example 12.ABC.345/01DE-35.")
    List<String> documents;

    @Override
    public Integer call() {
        boolean allValid = true;
        for (String arg : documents) {
            Parsed<TaxId> parsed = TaxId.parse(arg);
            out().println(arg + ": " + describe(parsed));
            allValid &= parsed.isValid();
        }
        return allValid ? Cli.DONE : Cli.NEGATIVE;
    }

    /** One line about one argument. */
    static String describe(Parsed<TaxId> parsed) {
        return switch (parsed) {
            case Parsed.Valid<TaxId>(Cpf cpf) ->
                "valid CPF, canonical " + cpf.canonical() + ", formatted " + cpf.formatted();
            case Parsed.Valid<TaxId>(Cnpj cnpj) ->
                "valid CNPJ" + (cnpj.isAlphanumeric() ? " (alphanumeric)" : "") + ", canonical " + cnpj.canonical()
                        + ", formatted " + cnpj.formatted();
            case Parsed.Invalid<TaxId>(Violation v) ->
                "invalid " + readAs(v.field()) + ", rule " + v.rule() + ": " + v.message();
        };
    }

    private static String readAs(String field) {
        return switch (field) {
            case Cpf.FIELD -> "CPF";
            case Cnpj.FIELD -> "CNPJ";
            default -> "(neither a CPF nor a CNPJ)";
        };
    }
}
