package dev.cadastro.server.cli;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.register.LuceneRegister;
import java.io.PrintStream;
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
            out.println(Json.of(found.get()));
            return 0;
        }
    }

    /** The spec's Empresa record (section 2.1) as JSON, snake-case names, absent fields left out. */
    static final class Json {
        private Json() {}

        static String of(Empresa e) {
            StringBuilder sb = new StringBuilder("{");
            field(sb, "cnpj", e.cnpj());
            field(sb, "razao_social", e.razaoSocial());
            field(sb, "nome_fantasia", e.nomeFantasia());
            field(sb, "situacao_cadastral", e.situacaoCadastral());
            field(sb, "situacao_descricao", e.situacaoDescricao());
            field(sb, "cnae", e.cnae());
            field(sb, "cnae_descricao", e.cnaeDescricao());
            field(sb, "natureza_juridica", e.naturezaJuridica());
            field(sb, "natureza_descricao", e.naturezaDescricao());
            field(sb, "porte", e.porte());
            field(sb, "porte_descricao", e.porteDescricao());
            if (e.capitalSocial() != null) {
                sep(sb).append("\"capital_social\":").append(e.capitalSocial().toPlainString());
            }
            field(
                    sb,
                    "data_abertura",
                    e.dataAbertura() == null ? null : e.dataAbertura().toString());
            field(sb, "uf", e.uf());
            field(sb, "municipio", e.municipio());
            field(sb, "bairro", e.bairro());
            field(sb, "cep", e.cep());
            field(sb, "logradouro", e.logradouro());
            field(sb, "telefone", e.telefone());
            field(sb, "email", e.email());
            return sb.append('}').toString();
        }

        private static StringBuilder sep(StringBuilder sb) {
            return sb.length() > 1 ? sb.append(',') : sb;
        }

        private static void field(StringBuilder sb, String name, String value) {
            if (value != null) {
                sep(sb).append('"').append(name).append("\":");
                string(sb, value);
            }
        }

        static void string(StringBuilder sb, String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20 || (c >= 0x7F && c < 0xA0) || c == '\u2028' || c == '\u2029') {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }
    }
}
