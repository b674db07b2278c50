package dev.cadastro.server.cli;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.CompanyDataJson;
import dev.cadastro.register.LuceneRegister;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code ./cadastro lookup --index DIR CNPJ}: prints the Empresa record (spec 2.1) as JSON. */
public final class LookupCommand implements Command {
    @Override
    public String name() {
        return "lookup";
    }

    @Override
    public String summary() {
        return "--index DIR CNPJ  print one establishment of the register index as JSON";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        LoadCommand.Flags flags = LoadCommand.Flags.parse(args, Set.of("index"), 1);
        var index = flags.path("index", true);
        if (flags.positional.isEmpty()) {
            throw new UsageException("the CNPJ to look up is missing");
        }
        Cnpj cnpj;
        switch (Cnpj.parse(flags.positional.get(0))) {
            case Parsed.Valid<Cnpj> v -> cnpj = v.value();
            case Parsed.Invalid<Cnpj> i -> {
                err.println("cadastro lookup: " + i.violation().message());
                return 1;
            }
        }
        try (LuceneRegister register = LuceneRegister.open(index)) {
            Optional<Empresa> found = register.lookup(cnpj);
            if (found.isEmpty()) {
                err.println("cadastro lookup: " + cnpj.formatted() + " is not in the register index " + index);
                return 1;
            }
            out.println(new String(CompanyDataJson.empresa(found.get()), StandardCharsets.UTF_8));
            return 0;
        }
    }
}
