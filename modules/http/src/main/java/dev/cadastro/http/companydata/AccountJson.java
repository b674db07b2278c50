package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.overview.AccountFunds;
import dev.cadastro.core.overview.AccountOverview;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.http.internal.Json;
import java.util.Optional;

/**
 * The body of {@code GET /v1/conta}: the asking key's account overview, in the API's Portuguese
 * snake_case. Credits are whole numbers; lists are sorted so two reads of the same state are equal.
 * {@code dados_referencia} ({@code mes}, {@code publicado_em}) says how fresh the register is, when its
 * served generation recorded its month (absent otherwise).
 */
final class AccountJson {
    private AccountJson() {}

    static byte[] overview(AccountOverview o) {
        return overview(o, Optional.empty());
    }

    static byte[] overview(AccountOverview o, Optional<DataReference> reference) {
        AccountFunds.Funds funds = o.funds();
        return Json.bytes(g -> {
            g.writeStartObject();
            g.writeNumberField("saldo_creditos", funds.credits().posted());
            g.writeNumberField("creditos_reservados", funds.credits().held());
            g.writeNumberField("creditos_disponiveis", funds.credits().available());
            g.writeObjectFieldStart("exportacoes_em_andamento");
            g.writeNumberField("quantidade", funds.runningExports());
            g.writeNumberField("creditos_reservados", funds.heldByExports());
            g.writeEndObject();
            g.writeNumberField("saldo_sms", funds.sms().posted());
            g.writeStringField("plano", o.plan());
            g.writeNumberField("limite_diario", o.dailyLimit());
            g.writeNumberField("uso_hoje", o.usedToday());
            g.writeObjectFieldStart("chave");
            g.writeStringField("prefixo", o.keyPrefix());
            g.writeArrayFieldStart("escopos");
            for (String scope : o.scopes().stream().map(Scope::wire).sorted().toList()) {
                g.writeString(scope);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeObjectFieldStart("consulta_pessoas");
            g.writeBooleanField("liberada", o.personLookupReleased());
            g.writeArrayFieldStart("finalidades");
            for (String purpose :
                    o.purposes().stream().map(Purpose::name).sorted().toList()) {
                g.writeString(purpose);
            }
            g.writeEndArray();
            g.writeEndObject();
            if (reference.isPresent()) {
                g.writeObjectFieldStart("dados_referencia");
                g.writeStringField("mes", reference.get().wire());
                g.writeStringField(
                        "publicado_em", CompanyDataJson.time(reference.get().publishedAt()));
                g.writeEndObject();
            }
            g.writeEndObject();
        });
    }
}
