package dev.cadastro.server.cli;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.http.Limits;
import dev.cadastro.http.QueryParameters;
import dev.cadastro.http.companydata.CompanyDataJson;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.register.LuceneRegister;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./cadastro search --index DIR 'ufs=SP&cnaes=4751201&limite=5'}: the count and one page of a
 * {@code GET /empresas} query, with the same parameter names and rules, as JSON.
 */
@Command(
        name = "search",
        description = {
            "Count and page a GET /v1/empresas query on a register index and print the JSON body the API"
                    + " sends (nothing is charged).",
            "The query is written as in a URL, raw UTF-8 or percent-encoded: 'municipios=São Paulo&apenas_total=true'."
                    + " Several arguments are joined with &.",
            "A parameter the API would reject (422) is a usage error, exit status 2, naming it."
        })
public final class SearchCommand extends IndexReadingCommand {
    @Parameters(
            paramLabel = "QUERY",
            arity = "1..*",
            description = "name=value pairs joined by &, for example 'ufs=SP&cnaes=4751201&limite=5'.")
    List<String> query;

    @Override
    public Integer call() {
        Path dir = indexDir();
        RegisterQuery parsed;
        try {
            parsed = SearchParameters.parse(QueryParameters.parse(
                            asUri(String.join("&", query)), Limits.defaults().maxQueryParameters())
                    .asMap());
        } catch (InvalidParameterException e) {
            throw usage(e.getMessage());
        }
        try (LuceneRegister register = LuceneRegister.open(dir)) {
            SearchResult r = register.search(parsed);
            // The same body GET /v1/empresas sends; nothing is charged here.
            out().println(new String(CompanyDataJson.searchResponse(r, parsed.countOnly(), 0), StandardCharsets.UTF_8));
            return Cli.DONE;
        } catch (InvalidParameterException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * The argument as a URI's query would carry it: every character outside printable ASCII (and the
     * space) percent-encoded as UTF-8, so the HTTP adapter's strict decoding reads it as the server
     * would. A lone surrogate, or the replacement character the JVM puts for bytes of the command line
     * that were not UTF-8, is malformed input and names its parameter.
     */
    static String asUri(String text) {
        StringBuilder uri = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            boolean loneSurrogate = Character.isSurrogate(text.charAt(i)) && Character.charCount(cp) == 1;
            if (loneSurrogate || cp == 0xFFFD) {
                throw InvalidParameterException.of(
                        parameterAt(text, i), "utf-8", Message.CLI_NOT_UTF8.with(parameterAt(text, i), i));
            }
            if (cp > 0x20 && cp < 0x7f) {
                uri.append((char) cp);
            } else {
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    uri.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
                }
            }
            i += Character.charCount(cp);
        }
        return uri.toString();
    }

    /** The name of the parameter whose text holds position {@code at} of the query. */
    private static String parameterAt(String text, int at) {
        int start = text.lastIndexOf('&', at) + 1;
        int eq = text.indexOf('=', start);
        boolean inValue = eq > start && eq < at;
        return inValue ? text.substring(start, eq) : "query parameter name";
    }
}
