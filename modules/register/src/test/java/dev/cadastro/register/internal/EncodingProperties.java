package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.register.SyntheticRegister;
import java.time.LocalDate;
import java.util.Locale;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The indexing hot path's hand-written encoders write exactly what the general ones wrote: index terms
 * as {@code String.format} spelled them (indexes written before and after must agree), and stored
 * records that decode to the same text, whatever characters a source field holds.
 */
class EncodingProperties {

    @Property
    void geoTermsAreSixDigitsZeroPadded(@ForAll @LongRange(min = 0, max = 999_999) long key) {
        assertEquals(String.format(Locale.ROOT, "%06d", key), Schema.geoTerm(key));
    }

    @Property
    void capitalBucketsAreExponentAndLeadingDigit(@ForAll @LongRange(min = 0) long centavos) {
        String expected;
        if (centavos == 0) {
            expected = "000";
        } else {
            String digits = Long.toString(centavos);
            expected = String.format(Locale.ROOT, "%02d%c", digits.length() - 1, digits.charAt(0));
        }
        assertEquals(expected, Schema.capitalBucket(centavos));
    }

    @Property
    void monthTermsAreYearAndMonth(
            @ForAll @IntRange(min = 0, max = 9999) int year, @ForAll @IntRange(min = 1, max = 12) int month) {
        LocalDate d = LocalDate.of(year, month, 1);
        assertEquals(String.format(Locale.ROOT, "%04d%02d", year, month), Schema.monthTerm(d));
    }

    @Property(tries = 300)
    void storedRecordsKeepAnyText(@ForAll String text, @ForAll long seed) {
        // A lone surrogate is not text: UTF-8 has no encoding for it (both encoders write '?').
        Assume.that(text.codePoints().noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE));
        Establishment e = new SyntheticRegister(seed).next();
        Establishment withText = new Establishment(
                e.cnpj(),
                e.headOffice(),
                text,
                e.situacaoCadastral(),
                e.dataSituacao(),
                e.motivoSituacao(),
                e.cidadeExterior(),
                e.pais(),
                e.dataAbertura(),
                e.cnaePrincipal(),
                e.cnaesSecundarios(),
                e.tipoLogradouro(),
                e.logradouro(),
                e.numero(),
                e.complemento(),
                text,
                e.cep(),
                e.uf(),
                e.municipio(),
                e.telefones(),
                e.fax(),
                e.email(),
                e.situacaoEspecial(),
                e.dataSituacaoEspecial(),
                e.company(),
                e.simples(),
                e.divida());
        byte[] record = RecordCodec.encode(withText, 42);
        Empresa decoded = RecordCodec.decode(record, 0, SyntheticRegister.lookups());
        assertEquals(text, decoded.nomeFantasia());
        assertEquals(text, decoded.bairro());
        assertEquals(e.cnpj().value(), decoded.cnpj());
        assertEquals(42, RecordCodec.sequence(record, 0));
    }
}
