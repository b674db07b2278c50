package dev.cadastro.http.companydata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchParametersTest {

    private static Map<String, List<String>> params(String... pairs) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.computeIfAbsent(pairs[i], k -> new ArrayList<>()).add(pairs[i + 1]);
        }
        return m;
    }

    private static InvalidParameterException rejected(String... pairs) {
        return assertThrows(InvalidParameterException.class, () -> SearchParameters.parse(params(pairs)));
    }

    private static void assertRejected(String field, String rule, String messagePart, String... pairs) {
        InvalidParameterException e = rejected(pairs);
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals(field, e.violation().field(), e.getMessage());
        assertEquals(rule, e.violation().rule(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), () -> e.getMessage() + " lacks " + messagePart);
    }

    @Test
    void appliesDefaultsAndNormalizesValues() {
        RegisterQuery q = SearchParameters.parse(params(
                "ufs", "sp",
                "ufs", "RJ",
                "cnaes", "4711-3/02",
                "naturezas", "213-5",
                "bairros", "  Jardim   América ",
                "situacao_cadastral", "02",
                "capital_min", "100000"));
        assertEquals(List.of("RJ", "SP"), List.copyOf(q.ufs()));
        assertEquals(List.of("4711302"), List.copyOf(q.cnaes()));
        assertEquals(List.of("2135"), List.copyOf(q.naturezas()));
        assertEquals(List.of("JARDIM AMERICA"), List.copyOf(q.bairros()));
        assertEquals(new BigDecimal("100000.00"), q.capitalMin().orElseThrow());
        assertEquals(50, q.limite());
        assertEquals(1, q.pagina());
        assertEquals(0, q.offset());
        assertFalse(q.countOnly());
        assertTrue(q.mei().isEmpty());
    }

    @Test
    void readsBooleansDatesAndPages() {
        RegisterQuery q = SearchParameters.parse(params(
                "mei", "true",
                "divida", "false",
                "abertura_de", "2020-01-01",
                "abertura_ate", "2023-12-31",
                "apenas_total", "true",
                "limite", "200",
                "pagina", "3"));
        assertEquals(true, q.mei().orElseThrow());
        assertEquals(false, q.divida().orElseThrow());
        assertEquals(LocalDate.of(2020, 1, 1), q.aberturaDe().orElseThrow());
        assertTrue(q.countOnly());
        assertEquals(400, q.offset());
    }

    @Test
    void builderAppliesTheSameRulesAndRoundTrips() {
        RegisterQuery built = RegisterQuery.builder()
                .ufs("SP")
                .municipios("SAO PAULO")
                .comEmail(true)
                .capitalMax(new BigDecimal("2500.5"))
                .limite(10)
                .build();
        assertEquals(built, SearchParameters.parse(SearchParameters.toParameters(built)));
        assertEquals(List.of("SAO PAULO"), built.municipios());
        assertThrows(
                InvalidParameterException.class,
                () -> RegisterQuery.builder().limite(10).build());
    }

    @Test
    void requiresAtLeastOneFilter() {
        assertRejected("filtro", "filter-required", "at least one filter is required", "apenas_total", "true");
        assertRejected("filtro", "filter-required", "at least one filter", "limite", "10", "pagina", "2");
        assertThrows(InvalidParameterException.class, () -> SearchParameters.parse(Map.of()));
    }

    @Test
    void rejectsUnknownParametersNamingThem() {
        assertRejected("uf", "unknown-parameter", "parameter 'uf' is not known", "uf", "SP");
        assertRejected("order_by", "unknown-parameter", "accepted: ufs, municipios", "ufs", "SP", "order_by", "cnpj");
    }

    @Test
    void rejectsRepeatedSingleValueParameters() {
        assertRejected(
                "mei", "single-value", "mei was given 2 times; it takes one value", "mei", "true", "mei", "false");
        assertRejected("limite", "single-value", "limite was given 2 times", "ufs", "SP", "limite", "1", "limite", "2");
    }

    @Test
    void rejectsEmptyValuesAndTooManyValues() {
        assertRejected("ufs", "empty-value", "ufs has an empty value", "ufs", " ");
        Map<String, List<String>> many = new LinkedHashMap<>();
        many.put("cnaes", Collections.nCopies(501, "4711302"));
        InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> SearchParameters.parse(many));
        assertEquals("too-many-values", e.violation().rule());
        assertTrue(e.getMessage().contains("cnaes has 501 values; the maximum is 500"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ufs|XX|uf|ufs 'XX' is not a state abbreviation",
                "ufs|São Paulo|uf|ufs 'São Paulo' is not a state abbreviation",
                "ddds|20|ddd|ddds '20' is not an area code in service",
                "ddds|011|ddd|ddds '011' is not an area code in service",
                "cnaes|47113|code|cnaes '47113' is not a CNAE of 7 digits",
                "cnaes|4711-3/0A|code|cnaes '4711-3/0A' is not a CNAE of 7 digits",
                "cnaes_secundarios|abc|code|cnaes_secundarios 'abc' is not a CNAE of 7 digits",
                "naturezas|21350|code|naturezas '21350' is not a legal nature code of 4 digits",
                "situacao_cadastral|2|code|situacao_cadastral '2' must be one of 01, 02, 03, 04, 08",
                "situacao_cadastral|05|code|situacao_cadastral '05' must be one of 01, 02, 03, 04, 08",
                "portes|02|code|portes '02' must be one of 00, 01, 03, 05",
                "mei|sim|boolean|mei 'sim' must be true or false",
                "simples|1|boolean|simples '1' must be true or false",
                "com_telefone|yes|boolean|com_telefone 'yes' must be true or false",
                "com_telefone_movel|t|boolean|com_telefone_movel 't' must be true or false",
                "com_email|null|boolean|com_email 'null' must be true or false",
                "divida|0|boolean|divida '0' must be true or false",
                "apenas_total|x|boolean|apenas_total 'x' must be true or false",
                "apenas_total|' true'|boolean|apenas_total ' true' must be true or false",
                "divida|FALSE|boolean|divida 'FALSE' must be true or false",
                "abertura_de|2020-13-01|date|abertura_de '2020-13-01' must be a date as YYYY-MM-DD",
                "abertura_de|01/02/2020|date|abertura_de '01/02/2020' must be a date as YYYY-MM-DD",
                "abertura_ate|20200101|date|abertura_ate '20200101' must be a date as YYYY-MM-DD",
                "abertura_ate|2021-02-30|date|abertura_ate '2021-02-30' must be a date",
                "capital_min|-1|number|capital_min '-1' must be a non-negative number",
                "capital_min|+1|number|capital_min '+1' must be a non-negative number",
                "capital_min|' 100'|number|capital_min ' 100' must be a non-negative number",
                "capital_min|\u0663|number|capital_min '\u0663' must be a non-negative number",
                "capital_max|1.|number|capital_max '1.' must be a non-negative number",
                "capital_min|1,5|number|capital_min '1,5' must be a non-negative number in reais with a dot",
                "capital_max|1e6|number|capital_max '1e6' must be a non-negative number",
                "capital_max|10.001|scale|capital_max '10.001' has more than 2 decimal places",
                "capital_min|100000000000000|maximum|capital_min '100000000000000' exceeds the maximum 99999999999999.99",
            })
    void rejectsEachValueNamingParameterValueAndRule(String name, String value, String rule, String message) {
        String other = "situacao_cadastral".equals(name) ? "portes" : "situacao_cadastral";
        assertRejected(name, rule, message, other, "01", name, value);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "limite|0|minimum|limite 0 is below the minimum 1",
                "limite|201|maximum|limite 201 exceeds the maximum 200",
                "limite|500|maximum|limite 500 exceeds the maximum 200",
                "limite|ten|integer|limite 'ten' must be a whole number",
                "limite|1.5|integer|limite '1.5' must be a whole number",
                "pagina|0|minimum|pagina 0 is below the minimum 1",
                "pagina|-3|integer|pagina '-3' must be a whole number written with digits only",
                "limite|+5|integer|limite '+5' must be a whole number written with digits only",
                "limite|' 5'|integer|limite ' 5' must be a whole number written with digits only",
                "limite|0005|integer|limite '0005' must be a whole number written with digits only",
                "pagina|02|integer|pagina '02' must be a whole number written with digits only",
                "limite|\u0665|integer|limite '\u0665' must be a whole number",
                "pagina|99999999999|maximum|pagina 99999999999 exceeds the maximum 2147483647",
                "pagina|x|integer|pagina 'x' must be a whole number",
            })
    void rejectsPagesOutsideTheirLimits(String name, String value, String rule, String message) {
        assertRejected(name, rule, message, "ufs", "SP", name, value);
    }

    @Test
    void rejectsOverlongNamesAndControlCharacters() {
        assertRejected(
                "municipios", "too-long", "has 101 characters; the maximum is 100", "municipios", "X".repeat(101));
        assertRejected("bairros", "characters", "contains a control character", "bairros", "CENTRO\tSUL");
    }

    @Test
    void rejectsEmptyRanges() {
        assertRejected(
                "abertura_de",
                "range",
                "abertura_de 2021-01-01 is after abertura_ate 2020-12-31",
                "abertura_de",
                "2021-01-01",
                "abertura_ate",
                "2020-12-31");
        assertRejected(
                "capital_min",
                "range",
                "capital_min 10.00 is above capital_max 5.00",
                "capital_min",
                "10",
                "capital_max",
                "5");
    }

    @Test
    void controlCharactersAreEscapedInMessages() {
        InvalidParameterException e = rejected("ufs", "S\u0000P");
        assertTrue(e.getMessage().contains("'S\\u0000P'"), e.getMessage());
    }
}
