package dev.cadastro.http.companydata;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.http.internal.Json;
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

    /** One Empresa record: snake_case names, absent fields omitted. */
    public static byte[] empresa(Empresa empresa) {
        return Json.bytes(768, g -> EmpresaJson.write(g, empresa));
    }

    /** The body of {@code GET /v1/empresas/{cnpj}}: {@code dados} (the record) and {@code creditos_consumidos}. */
    public static byte[] lookupResponse(Empresa empresa, long creditsCharged) {
        return Json.bytes(768, g -> {
            g.writeStartObject();
            g.writeFieldName("dados");
            EmpresaJson.write(g, empresa);
            g.writeNumberField("creditos_consumidos", creditsCharged);
            g.writeEndObject();
        });
    }

    /**
     * The body of {@code GET /v1/empresas}: {@code dados}, {@code paginacao}, {@code total} when the
     * query was count-only, {@code aproximado} and {@code creditos_consumidos}.
     */
    public static byte[] searchResponse(SearchResult page, boolean countOnly, long creditsCharged) {
        return Json.bytes(256 + page.retornados() * 640, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("dados");
            for (Empresa e : page.dados()) {
                EmpresaJson.write(g, e);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("paginacao");
            g.writeNumberField("pagina", page.pagina());
            g.writeNumberField("limite", page.limite());
            g.writeNumberField("retornados", page.retornados());
            g.writeNumberField("total", page.total());
            g.writeEndObject();
            if (countOnly) {
                g.writeNumberField("total", page.total());
            }
            g.writeBooleanField("aproximado", page.aproximado());
            g.writeNumberField("creditos_consumidos", creditsCharged);
            g.writeEndObject();
        });
    }
}
