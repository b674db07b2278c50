package dev.cadastro.server.cli;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.register.LuceneRegister;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./cadastro search --index DIR 'ufs=SP&cnaes=4751201&limite=5'}: the count and one page of a
 * {@code GET /empresas} query, with the same parameter names and rules, as JSON.
 */
public final class SearchCommand implements Command {
    @Override
    public String name() {
        return "search";
    }

    @Override
    public String summary() {
        return "--index DIR 'ufs=SP&cnaes=4751201&limite=5'  count and page a GET /empresas query";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        LoadCommand.Flags flags = LoadCommand.Flags.parse(args, Set.of("index"), 16);
        var index = flags.path("index", true);
        if (flags.positional.isEmpty()) {
            throw new UsageException("the query is missing, for example 'ufs=SP&cnaes=4751201&limite=5'");
        }
        RegisterQuery query;
        try {
            query = RegisterQuery.parse(parameters(String.join("&", flags.positional)));
        } catch (InvalidParameterException e) {
            err.println("cadastro search: " + e.getMessage());
            return 1;
        }
        try (LuceneRegister register = LuceneRegister.open(index)) {
            SearchResult r = register.search(query);
            StringBuilder sb = new StringBuilder("{\"total\":").append(r.total());
            sb.append(",\"aproximado\":").append(r.aproximado());
            sb.append(",\"paginacao\":{\"pagina\":").append(r.pagina());
            sb.append(",\"limite\":").append(r.limite());
            sb.append(",\"retornados\":").append(r.retornados());
            sb.append(",\"total\":").append(r.total()).append('}');
            sb.append(",\"dados\":[");
            for (int i = 0; i < r.dados().size(); i++) {
                Empresa e = r.dados().get(i);
                sb.append(i == 0 ? "\n" : ",\n").append(LookupCommand.Json.of(e));
            }
            sb.append(r.dados().isEmpty() ? "]}" : "\n]}");
            out.println(sb);
            return 0;
        } catch (InvalidParameterException e) {
            err.println("cadastro search: " + e.getMessage());
            return 1;
        }
    }

    /** {@code a=1&a=2&b=x%20y} as a URL query: repeated names keep every value, in order. */
    static Map<String, List<String>> parameters(String query) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return params;
    }
}
