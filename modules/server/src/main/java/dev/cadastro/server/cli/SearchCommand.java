package dev.cadastro.server.cli;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.http.Limits;
import dev.cadastro.http.QueryParameters;
import dev.cadastro.http.companydata.CompanyDataJson;
import dev.cadastro.register.LuceneRegister;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
            query = RegisterQuery.parse(QueryParameters.parse(
                            String.join("&", flags.positional),
                            Limits.defaults().maxQueryParameters())
                    .asMap());
        } catch (InvalidParameterException e) {
            err.println("cadastro search: " + e.getMessage());
            return 1;
        }
        try (LuceneRegister register = LuceneRegister.open(index)) {
            SearchResult r = register.search(query);
            // The same body GET /v1/empresas sends; nothing is charged here.
            out.println(new String(CompanyDataJson.searchResponse(r, query.countOnly(), 0), StandardCharsets.UTF_8));
            return 0;
        } catch (InvalidParameterException e) {
            err.println("cadastro search: " + e.getMessage());
            return 1;
        }
    }
}
