package dev.cadastro.server.cli;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.CompanyDataJson;
import dev.cadastro.register.LuceneRegister;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./cadastro lookup --index DIR CNPJ}: prints the Empresa record as JSON. */
@Command(
        name = "lookup",
        description = {
            "Print one establishment of a register index as JSON, the body GET /v1/empresas/{cnpj} sends.",
            "Exit status 1 when the CNPJ is invalid or not in the index."
        })
public final class LookupCommand extends IndexReadingCommand {
    @Parameters(paramLabel = "CNPJ", description = "With or without punctuation, numeric or alphanumeric.")
    String cnpj;

    @Override
    public Integer call() {
        Path dir = indexDir();
        Cnpj parsed;
        switch (Cnpj.parse(cnpj)) {
            case Parsed.Valid<Cnpj> v -> parsed = v.value();
            case Parsed.Invalid<Cnpj> i -> {
                err().println("cadastro lookup: " + i.violation().message());
                return Cli.NEGATIVE;
            }
        }
        try (LuceneRegister register = LuceneRegister.open(dir)) {
            Optional<Empresa> found = register.lookup(parsed);
            if (found.isEmpty()) {
                err().println("cadastro lookup: " + parsed.formatted() + " is not in the register index " + dir);
                return Cli.NEGATIVE;
            }
            out().println(new String(CompanyDataJson.empresa(found.get()), StandardCharsets.UTF_8));
            return Cli.DONE;
        }
    }
}
