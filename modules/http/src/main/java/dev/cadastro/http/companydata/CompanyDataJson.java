package dev.cadastro.http.companydata;

import dev.cadastro.core.register.Change;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.core.time.SaoPauloTime;
import java.time.Instant;

/**
 * The company-data response bodies as UTF-8 JSON, exactly as {@code GET /v1/empresas} and {@code GET
 * /v1/empresas/{cnpj}} send them. Public so that other front ends (the command line, a host's own
 * controllers) print the same bytes the HTTP API does.
 */
public final class CompanyDataJson {
    private CompanyDataJson() {}

    /** A company-data time: ISO 8601 to the second with the {@code -03:00} offset ({@link SaoPauloTime}). */
    static String time(Instant instant) {
        return SaoPauloTime.format(instant);
    }

    private static final byte[] LOOKUP_START = JsonBytes.ascii("{\"dados\":");
    private static final byte[] CREDITS = JsonBytes.ascii(",\"creditos_consumidos\":");
    private static final byte[] PAGE_START = JsonBytes.ascii("{\"dados\":[");
    private static final byte[] PAGINATION = JsonBytes.ascii("],\"paginacao\":{\"pagina\":");
    private static final byte[] LIMIT = JsonBytes.ascii(",\"limite\":");
    private static final byte[] RETURNED = JsonBytes.ascii(",\"retornados\":");
    private static final byte[] TOTAL_IN_PAGINATION = JsonBytes.ascii(",\"total\":");
    private static final byte[] TOTAL = JsonBytes.ascii("},\"total\":");
    private static final byte[] APPROXIMATE_AFTER_TOTAL = JsonBytes.ascii(",\"aproximado\":");
    private static final byte[] APPROXIMATE_AFTER_PAGINATION = JsonBytes.ascii("},\"aproximado\":");

    /** One Empresa record: snake_case names, absent fields omitted. */
    public static byte[] empresa(Empresa empresa) {
        JsonBytes out = new JsonBytes(768);
        EmpresaJson.write(out, empresa);
        return out.toByteArray();
    }

    /** The body of {@code GET /v1/empresas/{cnpj}}: {@code dados} (the record) and {@code creditos_consumidos}. */
    public static byte[] lookupResponse(Empresa empresa, long creditsCharged) {
        JsonBytes out = new JsonBytes(832);
        out.raw(LOOKUP_START);
        EmpresaJson.write(out, empresa);
        out.raw(CREDITS).number(creditsCharged).raw('}');
        return out.toByteArray();
    }

    /**
     * The body of {@code GET /v1/empresas}: {@code dados}, {@code paginacao}, {@code total} when the
     * query was count-only, {@code aproximado} and {@code creditos_consumidos}.
     */
    public static byte[] searchResponse(SearchResult page, boolean countOnly, long creditsCharged) {
        JsonBytes out = new JsonBytes(256 + page.retornados() * 640);
        out.raw(PAGE_START);
        boolean first = true;
        for (Empresa e : page.dados()) {
            if (!first) {
                out.raw(',');
            }
            EmpresaJson.write(out, e);
            first = false;
        }
        out.raw(PAGINATION).number(page.pagina());
        out.raw(LIMIT).number(page.limite());
        out.raw(RETURNED).number(page.retornados());
        out.raw(TOTAL_IN_PAGINATION).number(page.total());
        if (countOnly) {
            out.raw(TOTAL).number(page.total()).raw(APPROXIMATE_AFTER_TOTAL);
        } else {
            out.raw(APPROXIMATE_AFTER_PAGINATION);
        }
        out.bool(page.aproximado());
        out.raw(CREDITS).number(creditsCharged).raw('}');
        return out.toByteArray();
    }

    /**
     * The body of {@code GET /v1/empresas/alteracoes}: {@code dados} (each item {@code tipos}, {@code
     * anteriores} and {@code empresa}, the new record), {@code paginacao}, {@code total} when the query was
     * count-only, {@code referencia} and {@code anterior} (the months compared), {@code aproximado} and
     * {@code creditos_consumidos}.
     */
    public static byte[] changesResponse(ChangePage page, boolean countOnly, long creditsCharged) {
        JsonBytes out = new JsonBytes(256 + page.retornados() * 760);
        out.raw(PAGE_START);
        boolean first = true;
        for (Change c : page.itens()) {
            if (!first) {
                out.raw(',');
            }
            first = false;
            out.raw(ITEM_TYPES);
            boolean firstType = true;
            for (ChangeType t : ChangeType.values()) {
                if (c.tipos().contains(t)) {
                    if (!firstType) {
                        out.raw(',');
                    }
                    firstType = false;
                    out.string(t.wire());
                }
            }
            out.raw(ITEM_PREVIOUS);
            boolean firstValue = true;
            for (var e : c.anteriores().entrySet().stream()
                    .sorted(java.util.Map.Entry.comparingByKey())
                    .toList()) {
                if (!firstValue) {
                    out.raw(',');
                }
                firstValue = false;
                out.string(e.getKey()).raw(':');
                if (e.getValue().isEmpty()) {
                    out.raw(NULL);
                } else {
                    out.string(e.getValue());
                }
            }
            out.raw(ITEM_RECORD);
            EmpresaJson.write(out, c.empresa());
            out.raw('}');
        }
        out.raw(PAGINATION).number(page.pagina());
        out.raw(LIMIT).number(page.limite());
        out.raw(RETURNED).number(page.retornados());
        out.raw(TOTAL_IN_PAGINATION).number(page.total());
        out.raw('}');
        if (countOnly) {
            out.raw(COMMA_TOTAL).number(page.total());
        }
        out.raw(MONTH);
        month(out, page.referencia());
        out.raw(PREVIOUS_MONTH);
        month(out, page.anterior());
        out.raw(APPROXIMATE);
        out.bool(page.aproximado());
        out.raw(CREDITS).number(creditsCharged).raw('}');
        return out.toByteArray();
    }

    private static void month(JsonBytes out, java.util.Optional<java.time.YearMonth> m) {
        if (m.isPresent()) {
            out.string(m.get().toString());
        } else {
            out.raw(NULL);
        }
    }

    private static final byte[] ITEM_TYPES = JsonBytes.ascii("{\"tipos\":[");
    private static final byte[] ITEM_PREVIOUS = JsonBytes.ascii("],\"anteriores\":{");
    private static final byte[] ITEM_RECORD = JsonBytes.ascii("},\"empresa\":");
    private static final byte[] NULL = JsonBytes.ascii("null");
    private static final byte[] COMMA_TOTAL = JsonBytes.ascii(",\"total\":");
    private static final byte[] MONTH = JsonBytes.ascii(",\"referencia\":");
    private static final byte[] PREVIOUS_MONTH = JsonBytes.ascii(",\"anterior\":");
    private static final byte[] APPROXIMATE = JsonBytes.ascii(",\"aproximado\":");
}
