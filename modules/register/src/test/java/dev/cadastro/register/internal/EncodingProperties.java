package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.register.SyntheticRegister;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
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
        RecordCodec codec = new RecordCodec(SyntheticRegister.lookups());
        byte[] record = codec.encode(withText, 42);
        Empresa decoded = codec.decode(record, 0);
        assertEquals(text, decoded.nomeFantasia());
        assertEquals(text, decoded.bairro());
        assertEquals(e.cnpj().value(), decoded.cnpj());
        assertEquals(42, RecordCodec.sequence(record, 0));
    }

    /**
     * Every field of a record reads back exactly as written, whatever it holds: the compact forms (codes
     * of the tables, digit strings as numbers, phones as digits, six-bit text) are taken only when they
     * reproduce the value, anything else is kept as written.
     */
    @Property(tries = 1000)
    void recordsKeepEveryFieldAsWritten(
            @ForAll("fieldText") String razao,
            @ForAll("fieldText") String tipo,
            @ForAll("fieldText") String logradouro,
            @ForAll("fieldText") String numero,
            @ForAll("fieldText") String complemento,
            @ForAll("fieldText") String email,
            @ForAll("codeLike") String cep,
            @ForAll("codeLike") String situacao,
            @ForAll("codeLike") String cnae,
            @ForAll("codeLike") String natureza,
            @ForAll("codeLike") String porte,
            @ForAll("codeLike") String uf,
            @ForAll("codeLike") String municipio,
            @ForAll("codeLike") String ddd,
            @ForAll("phoneNumber") String phone,
            @ForAll long seed,
            @ForAll @LongRange(min = 0) long sequence) {
        Establishment e = new SyntheticRegister(seed).next();
        Establishment.Company c = e.company() == null
                ? new Establishment.Company(razao, natureza, "49", 100L, porte, null)
                : new Establishment.Company(
                        razao,
                        natureza,
                        e.company().qualificacaoResponsavel(),
                        e.company().capitalSocialCentavos(),
                        porte,
                        e.company().enteFederativo());
        List<Establishment.PhoneNumber> phones =
                ddd == null || phone == null ? List.of() : List.of(new Establishment.PhoneNumber(ddd, phone, false));
        Establishment w = new Establishment(
                e.cnpj(),
                e.headOffice(),
                e.nomeFantasia(),
                situacao,
                e.dataSituacao(),
                e.motivoSituacao(),
                e.cidadeExterior(),
                e.pais(),
                e.dataAbertura(),
                cnae,
                e.cnaesSecundarios(),
                tipo,
                logradouro,
                numero,
                complemento,
                e.bairro(),
                cep,
                uf,
                municipio,
                phones,
                e.fax(),
                email,
                e.situacaoEspecial(),
                e.dataSituacaoEspecial(),
                c,
                e.simples(),
                e.divida());
        Lookups lookups = SyntheticRegister.lookups();
        RecordCodec codec = new RecordCodec(lookups);
        byte[] record = codec.encode(w, sequence);
        Empresa d = codec.decode(record, 0);
        assertEquals(sequence, RecordCodec.sequence(record, 0));
        // A first copy (sequence 0) is written without it (version 3); nothing else differs.
        byte[] other = codec.encode(w, sequence == 0 ? 1 : 0);
        assertEquals(d, codec.decode(other, 0));
        byte[] first = sequence == 0 ? record : other;
        byte[] repeat = sequence == 0 ? other : record;
        long repeatSequence = sequence == 0 ? 1 : sequence;
        int vlongBytes = (64 - Long.numberOfLeadingZeros(repeatSequence) + 6) / 7;
        assertEquals(first.length + vlongBytes, repeat.length, "a first copy's record carries no sequence");
        assertEquals(e.cnpj().value(), d.cnpj());
        assertEquals(razao, d.razaoSocial());
        assertEquals(e.nomeFantasia(), d.nomeFantasia());
        assertEquals(situacao, d.situacaoCadastral());
        assertEquals(Lookups.situacaoDescricao(situacao), d.situacaoDescricao());
        assertEquals(cnae, d.cnae());
        assertEquals(cnae == null ? null : lookups.cnaes().get(cnae), d.cnaeDescricao());
        assertEquals(natureza, d.naturezaJuridica());
        assertEquals(natureza == null ? null : lookups.naturezas().get(natureza), d.naturezaDescricao());
        assertEquals(porte, d.porte());
        assertEquals(Lookups.porteDescricao(porte), d.porteDescricao());
        assertEquals(uf, d.uf());
        assertEquals(municipio == null ? null : lookups.municipios().getOrDefault(municipio, municipio), d.municipio());
        assertEquals(e.bairro(), d.bairro());
        assertEquals(cep, d.cep());
        assertEquals(expectedAddress(tipo, logradouro, numero, complemento), d.logradouro());
        assertEquals(phones.isEmpty() ? null : phones.get(0).formatted(), d.telefone());
        assertEquals(email, d.email());
        assertEquals(e.dataAbertura(), d.dataAbertura());
    }

    /** The address as the company record (`logradouro`) joins it, written out independently of the codec. */
    private static String expectedAddress(String tipo, String logradouro, String numero, String complemento) {
        if (logradouro == null || logradouro.isBlank()) {
            return null;
        }
        List<String> parts = new java.util.ArrayList<>();
        parts.add((tipo == null || tipo.isBlank() ? "" : tipo.strip() + " ") + logradouro.strip());
        if (numero != null && !numero.isBlank()) {
            parts.add(numero.strip());
        }
        if (complemento != null && !complemento.isBlank()) {
            parts.add(complemento.strip());
        }
        return String.join(", ", parts);
    }

    /** Text as the register holds it (upper-case words, e-mails, accents) and anything else, or null. */
    @Provide
    Arbitrary<String> fieldText() {
        Arbitrary<String> upper = Arbitraries.strings()
                .withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-/&ÇÃÉÔabcxyz@_")
                .ofMaxLength(60);
        Arbitrary<String> any = Arbitraries.strings()
                .ofMaxLength(40)
                .filter(t ->
                        t.codePoints().noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE));
        Arbitrary<String> known = Arbitraries.of("RUA", "AVENIDA", "", " ", "S/N", "joao.silva@gmail.com", "CENTRO");
        return Arbitraries.oneOf(upper, any, known).injectNull(0.1);
    }

    /** Phone numbers as the loader keeps them (8 or 9 digits) and odd ones (formatted() needs 4 characters). */
    @Provide
    Arbitrary<String> phoneNumber() {
        Arbitrary<String> usual = Arbitraries.strings().numeric().ofMinLength(8).ofMaxLength(9);
        Arbitrary<String> odd = Arbitraries.strings()
                .withChars("0123456789 -()Aé")
                .ofMinLength(4)
                .ofMaxLength(14);
        return Arbitraries.oneOf(usual, odd).injectNull(0.1);
    }

    /** Codes and digit strings of every length, in and out of the tables, or null. */
    @Provide
    Arbitrary<String> codeLike() {
        Lookups lookups = SyntheticRegister.lookups();
        Arbitrary<String> digits =
                Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(16);
        Arbitrary<String> tables = Arbitraries.of(List.copyOf(lookups.cnaes().keySet()));
        Arbitrary<String> munis =
                Arbitraries.of(List.copyOf(lookups.municipios().keySet()));
        Arbitrary<String> nats = Arbitraries.of(List.copyOf(lookups.naturezas().keySet()));
        Arbitrary<String> fixed = Arbitraries.of(
                "01",
                "02",
                "08",
                "00",
                "05",
                "SP",
                "EX",
                "AC",
                "11",
                "91234567",
                "912345678",
                "01310100",
                "0",
                "-1",
                "12 3",
                "1234567890123");
        Arbitrary<String> odd =
                Arbitraries.strings().withChars("0123456789 -()ABCé").ofMaxLength(16);
        return Arbitraries.oneOf(digits, tables, munis, nats, fixed, odd).injectNull(0.1);
    }
}
