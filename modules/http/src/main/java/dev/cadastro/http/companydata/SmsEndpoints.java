package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.sms.OtpCheck;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpSent;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.internal.Json;
import dev.cadastro.http.internal.JsonBody;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code POST /v1/sms/otp} and {@code POST /v1/sms/otp/verificar}, called by
 * {@link CompanyDataApi} after admission and the {@code sms:otp} scope check.
 *
 * <ul>
 *   <li>Sending takes {@code {"telefone": "11987654321", "validade_segundos": 600, "digitos": 6}} (the
 *       last two optional) and answers {@code {"envio_id", "expira_em", "creditos_sms_consumidos": 1}}:
 *       never the code. It accepts {@code Idempotency-Key}: a retry answers the first dispatch again,
 *       sending and charging nothing.
 *   <li>Checking takes {@code {"envio_id": "...", "codigo": "012345"}}, the code as a string (a JSON
 *       number would lose its leading zeros), and answers {@code {"valido", "status",
 *       "tentativas_restantes"}}. The typed code is never echoed, not even in a 422.
 * </ul>
 */
final class SmsEndpoints {
    static final String SEND = "POST /v1/sms/otp";
    static final String CHECK = "POST /v1/sms/otp/verificar";
    private static final Set<String> SEND_FIELDS = Set.of(OtpRequest.TELEFONE, OtpRequest.VALIDADE, OtpRequest.DIGITOS);
    private static final Set<String> CHECK_FIELDS = Set.of(OtpService.ENVIO_ID, OtpService.CODIGO);

    private final OtpService otp;
    private final IdempotentResponses idempotent;

    SmsEndpoints(OtpService otp, IdempotentResponses idempotent) {
        this.otp = Objects.requireNonNull(otp, "otp");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
    }

    Response send(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, SEND, Message.TAKES_JSON_BODY.with());
        Map<String, Object> body = JsonBody.object(request.body());
        onlyFields(body, SEND_FIELDS, "telefone, validade_segundos and digitos");
        OtpRequest parsed = OtpRequest.parse(
                string(body, OtpRequest.TELEFONE, Message.SMS_TELEFONE_WHAT.with()),
                whole(body, OtpRequest.VALIDADE),
                whole(body, OtpRequest.DIGITOS));
        RequestFingerprint fingerprint = RequestFingerprint.of(
                SEND,
                Map.of(
                        OtpRequest.TELEFONE, List.of(parsed.phone().national()),
                        OtpRequest.VALIDADE,
                                List.of(Long.toString(parsed.validity().toSeconds())),
                        OtpRequest.DIGITOS, List.of(Integer.toString(parsed.digits()))));
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            OtpSent sent = otp.send(principal, parsed, reference);
            byte[] json = Json.bytes(g -> {
                g.writeStartObject();
                g.writeStringField("envio_id", sent.id());
                g.writeStringField("expira_em", CompanyDataJson.time(sent.expiresAt()));
                g.writeNumberField("creditos_sms_consumidos", sent.creditsConsumed());
                g.writeEndObject();
            });
            return Response.json(200, json);
        });
    }

    Response check(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, CHECK, Message.TAKES_JSON_BODY.with());
        Map<String, Object> body = JsonBody.object(request.body());
        onlyFields(body, CHECK_FIELDS, "envio_id and codigo");
        String envioId = string(body, OtpService.ENVIO_ID, Message.SMS_ENVIO_ID_WHAT.with());
        String codigo = string(body, OtpService.CODIGO, Message.SMS_CODIGO_WHAT.with());
        OtpCheck check = otp.verify(principal, envioId, codigo);
        byte[] json = Json.bytes(g -> {
            g.writeStartObject();
            g.writeBooleanField("valido", check.valid());
            g.writeStringField("status", check.status().wire());
            g.writeNumberField("tentativas_restantes", check.remainingAttempts());
            g.writeEndObject();
        });
        return Response.json(200, json);
    }

    private static void onlyFields(Map<String, Object> body, Set<String> accepted, String names) {
        for (String name : body.keySet()) {
            if (!accepted.contains(name)) {
                throw InvalidParameterException.of(
                        name, "unknown-field", Message.UNKNOWN_FIELD.with(Texts.quote(name), names));
            }
        }
    }

    /** A string field; absent is null (the use case names the rule), any other type is refused without echo. */
    private static String string(Map<String, Object> body, String field, LocalizedText what) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw InvalidParameterException.of(field, "type", Message.MUST_BE_STRING_WHAT.with(field, what));
        }
        return s;
    }

    /** An optional whole-number field, or null when absent. */
    private static Long whole(Map<String, Object> body, String field) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof BigInteger n)) {
            throw InvalidParameterException.of(field, "type", Message.MUST_BE_WHOLE.with(field));
        }
        if (n.bitLength() > 31) {
            throw InvalidParameterException.of(field, "range", Message.OUT_OF_RANGE.with(field, n));
        }
        return n.longValue();
    }
}
