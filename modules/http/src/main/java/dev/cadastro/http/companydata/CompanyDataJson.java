package dev.cadastro.http.companydata;

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
}
