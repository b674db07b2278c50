package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.credit.CreditOutcome;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.enrichment.BureauAnswers;
import dev.cadastro.core.enrichment.EnrichmentOutcome;
import dev.cadastro.core.enrichment.EnrichmentService;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.internal.Json;
import dev.cadastro.http.internal.JsonBody;
import dev.cadastro.http.internal.JsonTree;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /v1/enriquecimento/{cnpj}} and {@code POST /v1/credito/consultar},
 * called by {@link CompanyDataApi} after admission and the scope check. Both answer from an outside
 * bureau through the core's use cases, which charge only for an answer that is delivered.
 *
 * <ul>
 *   <li>Enrichment answers {@code {"dados": {...}, "creditos_consumidos": n}} like a lookup, where
 *       {@code dados} is the bureau's record after the enrichment allowlist, in snake case.
 *   <li>A credit report takes {@code {"documento": "<CPF or CNPJ>"}}, with or without its mask, and no
 *       other field; the document is never accepted in the path or the query string, so any query
 *       parameter is refused by name. It answers {@code {"fonte": "bureau"|"cache", "consultado_em":
 *       "...-03:00", "creditos_consumidos": n, "dados": {...}}}, where {@code dados} is the report after
 *       the report allowlist and {@code consultado_em} is when the bureau was asked (for a cached
 *       answer, the original fetch).
 * </ul>
 *
 * Both accept {@code Idempotency-Key}: a retry answers the first answer again without calling the
 * bureau or the ledger. Both carry the balance after the call in {@value CompanyDataApi#BALANCE_HEADER}.
 */
final class BureauEndpoints {
    static final String ENRICHMENT = "GET /v1/enriquecimento/{cnpj}";
    static final String CREDIT_REPORT = "POST /v1/credito/consultar";
    private static final String DOCUMENTO = "documento";

    private final EnrichmentService enrichment;
    private final CreditReportService credit;
    private final IdempotentResponses idempotent;

    BureauEndpoints(EnrichmentService enrichment, CreditReportService credit, IdempotentResponses idempotent) {
        this.enrichment = Objects.requireNonNull(enrichment, "enrichment");
        this.credit = Objects.requireNonNull(credit, "credit");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
    }

    Response enrich(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, ENRICHMENT, Message.TAKES_NONE.with());
        String cnpj = request.pathParameter("cnpj").orElse("")
                + request.pathParameter("ordem").map(o -> "/" + o).orElse("");
        RequestFingerprint fingerprint = RequestFingerprint.of(ENRICHMENT, Map.of("cnpj", List.of(normalized(cnpj))));
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            EnrichmentOutcome outcome = enrichment.enrich(principal, cnpj);
            Map<String, Object> dados = BureauAnswers.tree(outcome.enrichment());
            byte[] body = Json.bytes(1024, g -> {
                g.writeStartObject();
                g.writeFieldName("dados");
                JsonTree.write(g, dados);
                g.writeNumberField("creditos_consumidos", outcome.creditsCharged());
                g.writeEndObject();
            });
            Response response = Response.json(200, body)
                    .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(outcome.balanceAfter()));
            // Inside the stored answer: a replay names the month of the first answer, not the one current then,
            // and the first answer the month of the generation it was read from, not the one current when sent.
            return outcome.reference()
                    .map(r -> response.withHeader(DataReference.HEADER, r.wire()))
                    .orElse(response);
        });
    }

    Response consult(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, CREDIT_REPORT, Message.TAKES_DOCUMENT_BODY.with());
        String documento = documento(JsonBody.object(request.body()));
        RequestFingerprint fingerprint =
                RequestFingerprint.of(CREDIT_REPORT, Map.of(DOCUMENTO, List.of(normalized(documento))));
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            CreditOutcome outcome = credit.consult(principal, documento);
            Map<String, Object> dados = CreditAnswers.tree(outcome.report());
            byte[] body = Json.bytes(2048, g -> {
                g.writeStartObject();
                g.writeStringField("fonte", outcome.fonte().wire());
                g.writeStringField("consultado_em", CompanyDataJson.time(outcome.consultadoEm()));
                g.writeNumberField("creditos_consumidos", outcome.creditsCharged());
                g.writeFieldName("dados");
                JsonTree.write(g, dados);
                g.writeEndObject();
            });
            return Response.json(200, body)
                    .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(outcome.balanceAfter()));
        });
    }

    /** The body's one field; its value is validated by the use case (CPF_INVALIDO or PARAMETRO_INVALIDO). */
    static String documento(Map<String, Object> body) {
        for (String name : body.keySet()) {
            if (!DOCUMENTO.equals(name)) {
                throw InvalidParameterException.of(
                        name, "unknown-field", Message.UNKNOWN_FIELD.with(Texts.quote(name), "[documento]"));
            }
        }
        Object value = body.get(DOCUMENTO);
        if (value == null) {
            throw InvalidParameterException.of(DOCUMENTO, "required", Message.DOCUMENTO_REQUIRED.with());
        }
        if (!(value instanceof String s)) {
            throw InvalidParameterException.of(DOCUMENTO, "type", Message.DOCUMENTO_TYPE.with());
        }
        return s;
    }

    /**
     * The canonical document when it parses, so that a masked and an unmasked retry are the same
     * request; otherwise the text as sent (the use case then refuses it, and nothing is stored).
     */
    private static String normalized(String document) {
        return TaxId.parse(document).map(TaxId::canonical).orElse(document);
    }
}
