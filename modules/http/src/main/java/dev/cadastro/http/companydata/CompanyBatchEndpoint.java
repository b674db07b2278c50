package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.company.BatchLookupOutcome;
import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.internal.JsonBody;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code POST /v1/empresas/lote}, an addition beyond the contract (scope {@code empresas:read}): {@code
 * {"cnpjs": [...]}}, up to the account's contracted ceiling, answered with one item per position ({@link
 * CompanyService#batch}).
 *
 * <p>The body is read strictly, each problem a {@code 422 PARAMETRO_INVALIDO} naming its field: not JSON
 * or not an object ({@code body}), an unknown field, {@code cnpjs} missing, empty, not a list or over the
 * ceiling ({@code cnpjs}), an element that is not a string ({@code cnpjs[3]}). Invalid CNPJs are items,
 * not errors. The fingerprint of {@code Idempotency-Key} takes each CNPJ in its canonical form, so a
 * retry that writes a CNPJ with or without its mask is the same request; a replay answers the first
 * answer, byte for byte, and charges nothing.
 */
final class CompanyBatchEndpoint {
    static final String ROUTE = "POST /v1/empresas/lote";

    private static final Set<String> FIELDS = Set.of(CompanyService.CNPJS);

    private static final byte[] START = JsonBytes.ascii("{\"creditos_consumidos\":");
    private static final byte[] ITEMS = JsonBytes.ascii(",\"itens\":[");
    private static final byte[] POSITION = JsonBytes.ascii("{\"posicao\":");
    private static final byte[] CNPJ = JsonBytes.ascii(",\"cnpj\":");
    private static final byte[] STATUS = JsonBytes.ascii(",\"status\":");
    private static final byte[] CREDITS = JsonBytes.ascii(",\"creditos_consumidos\":");
    private static final byte[] DADOS = JsonBytes.ascii(",\"dados\":");
    private static final byte[] FIRST = JsonBytes.ascii(",\"primeira_posicao\":");
    private static final byte[] REASON = JsonBytes.ascii(",\"motivo\":");

    private final CompanyService companies;
    private final IdempotentResponses idempotent;

    CompanyBatchEndpoint(CompanyService companies, IdempotentResponses idempotent) {
        this.companies = Objects.requireNonNull(companies, "companies");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
    }

    Response batch(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, ROUTE, Message.TAKES_CNPJS_BODY.with());
        List<String> cnpjs = cnpjs(JsonBody.object(request.body()), principal);
        List<String> canonical = new ArrayList<>(cnpjs.size());
        for (String c : cnpjs) {
            canonical.add(Cnpj.parse(c).map(Cnpj::value).orElse(c));
        }
        RequestFingerprint fingerprint = RequestFingerprint.of(ROUTE, Map.of(CompanyService.CNPJS, canonical));
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            BatchLookupOutcome outcome = companies.batch(principal, cnpjs);
            Response response = Response.json(200, body(outcome, cnpjs))
                    .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(outcome.balanceAfter()));
            // Inside the stored answer: a replay names the generation its records came from.
            return outcome.reference()
                    .map(r -> response.withHeader(DataReference.HEADER, r.wire()))
                    .orElse(response);
        });
    }

    /** The list of the body, every element a string, within the account's ceiling. */
    private static List<String> cnpjs(Map<String, Object> body, Principal principal) {
        for (String name : body.keySet()) {
            if (!FIELDS.contains(name)) {
                throw InvalidParameterException.of(
                        name, "unknown-field", Message.UNKNOWN_FIELD.with(Texts.quote(name), new TreeSet<>(FIELDS)));
            }
        }
        Object value = body.get(CompanyService.CNPJS);
        if (value == null) {
            CompanyService.checkBatchSize(principal.account(), List.of());
        }
        if (!(value instanceof List<?> list)) {
            throw InvalidParameterException.of(CompanyService.CNPJS, "type", Message.CNPJS_TYPE.with());
        }
        CompanyService.checkBatchSize(principal.account(), list);
        List<String> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String s)) {
                String field = CompanyService.CNPJS + "[" + i + "]";
                throw InvalidParameterException.of(
                        field, "type", Message.CNPJS_ITEM_TYPE.with(field, kind(list.get(i))));
            }
            out.add(s);
        }
        return out;
    }

    private static String kind(Object value) {
        if (value instanceof BigInteger || value instanceof BigDecimal) {
            return "number";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof List<?>) {
            return "array";
        }
        if (value instanceof Map<?, ?>) {
            return "object";
        }
        return "null";
    }

    static byte[] body(BatchLookupOutcome outcome, List<String> sent) {
        JsonBytes out = new JsonBytes(64 + sent.size() * 96);
        out.raw(START).number(outcome.creditsCharged()).raw(ITEMS);
        List<BatchLookupOutcome.Item> items = outcome.items();
        for (int i = 0; i < items.size(); i++) {
            BatchLookupOutcome.Item item = items.get(i);
            if (i > 0) {
                out.raw(',');
            }
            out.raw(POSITION)
                    .number(i)
                    .raw(CNPJ)
                    .string(sent.get(i))
                    .raw(STATUS)
                    .ascii(item.status(), true);
            switch (item) {
                case BatchLookupOutcome.Item.Encontrado found -> {
                    out.raw(CREDITS).number(found.creditsCharged()).raw(DADOS);
                    EmpresaJson.write(out, found.empresa());
                }
                case BatchLookupOutcome.Item.Duplicado dup -> out.raw(FIRST).number(dup.firstPosition());
                case BatchLookupOutcome.Item.CnpjInvalido invalid ->
                    out.raw(REASON).ascii(invalid.reason(), true);
                case BatchLookupOutcome.Item.NaoEncontrado notFound -> {}
                case BatchLookupOutcome.Item.SemCreditos none -> {}
            }
            out.raw('}');
        }
        return out.raw(']').raw('}').toByteArray();
    }
}
