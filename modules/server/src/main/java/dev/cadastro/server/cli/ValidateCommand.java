package dev.cadastro.server.cli;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.document.Violation;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./cadastro validate DOC...}: says for each argument whether it is a valid CPF or CNPJ, with
 * its canonical and formatted forms, or which rule it breaks. The shape decides which document an
 * argument is read as (see {@link TaxId#parse}). Exit status 0 when every argument is valid, 1 when
 * any is not, 2 when none is given.
 */
public final class ValidateCommand implements Command {

    @Override
    public String name() {
        return "validate";
    }

    @Override
    public String summary() {
        return "DOC...  tells whether each DOC is a valid CPF or CNPJ (numeric or alphanumeric)";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            throw new UsageException("give at least one CPF or CNPJ, for example 12.ABC.345/01DE-35");
        }
        if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
            out.println("usage: ./cadastro validate DOC...");
            out.println(
                    "  11 digits or NNN.NNN.NNN-NN are read as a CPF; 14 characters or NN.NNN.NNN/NNNN-NN as a CNPJ.");
            out.println("  exit status: 0 all valid, 1 any invalid, 2 usage error");
            return 0;
        }
        boolean allValid = true;
        for (String arg : args) {
            Parsed<TaxId> parsed = TaxId.parse(arg);
            out.println(arg + ": " + describe(parsed));
            allValid &= parsed.isValid();
        }
        return allValid ? 0 : 1;
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
