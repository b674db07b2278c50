package dev.cadastro.http.companydata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.SearchResult;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The direct writer sends, byte for byte, what the jackson-core generator sent before it. */
class CompanyDataJsonProperties {

    @Property(tries = 500)
    void aPageIsWrittenAsTheGeneratorWroteIt(
            @ForAll("pages") List<Empresa> records,
            @ForAll @IntRange(min = 1, max = 1000) int pagina,
            @ForAll boolean countOnly,
            @ForAll boolean aproximado,
            @ForAll @IntRange(min = 0, max = 1_000_000) long credits) {
        int limite = Math.max(1, records.size());
        SearchResult page =
                new SearchResult(records, pagina, limite, records.size(), records.size() + 123_456_789L, aproximado);
        assertEquals(
                text(JacksonReference.searchResponse(page, countOnly, credits)),
                text(CompanyDataJson.searchResponse(page, countOnly, credits)));
    }

    @Property(tries = 1000)
    void aRecordAndALookupAreWrittenAsTheGeneratorWroteThem(
            @ForAll("empresas") Empresa e, @ForAll @IntRange(min = 0, max = 100) long credits) {
        assertEquals(text(JacksonReference.empresa(e)), text(CompanyDataJson.empresa(e)));
        assertEquals(
                text(JacksonReference.lookupResponse(e, credits)), text(CompanyDataJson.lookupResponse(e, credits)));
    }

    @Property(tries = 2000)
    void everyCharacterIsEscapedAsTheGeneratorEscapedIt(@ForAll("texts") String text) {
        Empresa e = empresa(
                List.of(
                        text, text, text, text, text, text, text, text, text, text, text, text, text, text, text, text,
                        text, text),
                null,
                null);
        assertEquals(text(JacksonReference.empresa(e)), text(CompanyDataJson.empresa(e)));
    }

    @Provide
    Arbitrary<List<Empresa>> pages() {
        return empresas().list().ofMaxSize(60);
    }

    @Provide
    Arbitrary<Empresa> empresas() {
        Arbitrary<String> field = Arbitraries.oneOf(texts(), Arbitraries.just(null));
        Arbitrary<BigDecimal> capital = Arbitraries.oneOf(
                Arbitraries.bigDecimals()
                        .between(BigDecimal.ZERO, new BigDecimal("1E+12"))
                        .ofScale(2),
                Arbitraries.of(new BigDecimal("1E+6"), new BigDecimal("0.00"), new BigDecimal("123")),
                Arbitraries.just(null));
        Arbitrary<LocalDate> date = Arbitraries.oneOf(
                Arbitraries.integers()
                        .between(0, 50_000)
                        .map(d -> LocalDate.of(1900, 1, 1).plusDays(d)),
                Arbitraries.just(null));
        return Combinators.combine(field.list().ofSize(18), capital, date).as(CompanyDataJsonProperties::empresa);
    }

    /**
     * Text from every corner of the escaping: control characters, quotes and backslashes, DEL,
     * Latin-1 accents, three-byte characters, surrogate pairs (emoji) and lone surrogates.
     */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.chars().range('\u0000', '\u007f').map(String::valueOf),
                Arbitraries.of("\"", "\\", "/", "\u007f", "ç", "É", "ã", "\u00a0", "\u20ac", "\ufffd", "\u2028"),
                Arbitraries.chars().range('\u0080', '\ud7ff').map(String::valueOf),
                Arbitraries.chars().range('\ue000', '\uffff').map(String::valueOf),
                Arbitraries.integers().between(0x10000, 0x10ffff).map(Character::toString),
                Arbitraries.chars().range('\ud800', '\udfff').map(String::valueOf),
                Arbitraries.strings()
                        .alpha()
                        .numeric()
                        .withChars(' ', '-', '.', ',')
                        .ofMaxLength(20));
        return piece.list().ofMaxSize(12).map(parts -> String.join("", parts));
    }

    private static Empresa empresa(List<String> t, BigDecimal capital, LocalDate date) {
        List<String> f = new ArrayList<>(t);
        return new Empresa(
                f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), f.get(5), f.get(6), f.get(7), f.get(8), f.get(9),
                f.get(10), capital, date, f.get(11), f.get(12), f.get(13), f.get(14), f.get(15), f.get(16), f.get(17));
    }

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
