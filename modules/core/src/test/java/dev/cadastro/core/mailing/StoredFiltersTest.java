package dev.cadastro.core.mailing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** The filters a mailing job stores read back as the same query, every kind of filter included. */
class StoredFiltersTest {
    @Test
    void everyKindOfFilterReadsBackTheSame() {
        RegisterQuery q = RegisterQuery.builder()
                .ufs("SP", "RJ")
                .municipios("São Paulo", "7107")
                .bairros("Centro")
                .cnaes("4711-3/02")
                .situacaoCadastral("02")
                .mei(false)
                .comEmail(true)
                .abertura(LocalDate.of(2000, 1, 1), LocalDate.of(2020, 12, 31))
                .capital(new BigDecimal("1000"), new BigDecimal("2500.5"))
                .buscaTextual("Padaria São Jo")
                .build();
        String stored = MailingService.encode(q);
        assertEquals(q, MailingService.decode(stored), stored);
        assertEquals(
                "ufs=RJ&ufs=SP&municipios=S%C3%A3o+Paulo&municipios=7107&bairros=CENTRO&cnaes=4711302"
                        + "&situacao_cadastral=02&mei=false&abertura_de=2000-01-01&abertura_ate=2020-12-31"
                        + "&com_email=true&capital_min=1000.00&capital_max=2500.50&busca_textual=PADARIA+SAO+JO"
                        + "&limite=50&pagina=1",
                stored, "the text jobs stored before the typed query is unchanged");
    }
}
