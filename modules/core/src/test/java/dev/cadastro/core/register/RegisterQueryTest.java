package dev.cadastro.core.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.RegisterQuery.Filter;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The typed query's domain rules; reading the HTTP form is tested in the http module. */
class RegisterQueryTest {

    private static void assertRejected(String field, String rule, String messagePart, Executable build) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class, build);
        assertEquals(
                field + " " + rule, e.violation().field() + " " + e.violation().rule(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), () -> e.getMessage() + " lacks " + messagePart);
    }

    @Test
    void holdsTypedNormalizedFiltersAndSaysWhichAreSet() {
        RegisterQuery q = RegisterQuery.builder()
                .ufs("sp", "RJ")
                .cnaes("4711-3/02")
                .bairros("  Jardim   América ")
                .comEmail(true)
                .aberturaDe(LocalDate.of(2020, 1, 1))
                .capitalMin(new BigDecimal("100000"))
                .build();
        assertEquals(List.of("RJ", "SP"), List.copyOf(q.ufs()));
        assertEquals(List.of("4711302"), List.copyOf(q.cnaes()));
        assertEquals(List.of("JARDIM AMERICA"), List.copyOf(q.bairros()));
        assertEquals(new BigDecimal("100000.00"), q.capitalMin().orElseThrow());
        assertEquals(
                EnumSet.of(
                        Filter.UFS,
                        Filter.BAIRROS,
                        Filter.CNAES,
                        Filter.ABERTURA_DE,
                        Filter.COM_EMAIL,
                        Filter.CAPITAL_MIN),
                q.filters());
        assertEquals(
                Map.of(
                        Filter.UFS, List.of("RJ", "SP"),
                        Filter.BAIRROS, List.of("JARDIM AMERICA"),
                        Filter.CNAES, List.of("4711302"),
                        Filter.ABERTURA_DE, List.of("2020-01-01"),
                        Filter.COM_EMAIL, List.of("true"),
                        Filter.CAPITAL_MIN, List.of("100000.00")),
                q.filterValues());
        assertEquals(50, q.limite());
        assertEquals(1, q.pagina());
    }

    @Test
    void toBuilderKeepsTheFiltersAndChangesThePage() {
        RegisterQuery q = RegisterQuery.builder()
                .ufs("SP")
                .municipios("Santos", "Campinas")
                .build();
        RegisterQuery page = q.toBuilder().limite(10).pagina(3).countOnly(true).build();
        assertEquals(q.filterValues(), page.filterValues());
        assertEquals(List.of("Santos", "Campinas"), page.municipios());
        assertEquals(20, page.offset());
        assertTrue(page.countOnly());
        assertEquals(q, q.toBuilder().build());
    }

    @Test
    void appliesEachDomainRuleNamingFieldValueAndRule() {
        assertRejected(
                "ufs",
                "uf",
                "ufs 'XX' is not a state abbreviation",
                () -> RegisterQuery.builder().ufs("XX"));
        assertRejected("ddds", "ddd", "ddds '20'", () -> RegisterQuery.builder().ddds("20"));
        assertRejected(
                "cnaes",
                "code",
                "cnaes '47113' is not a CNAE of 7 digits",
                () -> RegisterQuery.builder().cnaes("47113"));
        assertRejected(
                "portes",
                "code",
                "portes '02' must be one of 00, 01, 03, 05",
                () -> RegisterQuery.builder().portes("02"));
        assertRejected(
                "municipios",
                "too-long",
                "has 101 characters",
                () -> RegisterQuery.builder().municipios("X".repeat(101)));
        assertRejected(
                "capital_max",
                "scale",
                "capital_max '10.001' has more than 2 decimal places",
                () -> RegisterQuery.builder().capitalMax(new BigDecimal("10.001")));
        assertRejected(
                "capital_min",
                "maximum",
                "exceeds the maximum 99999999999999.99",
                () -> RegisterQuery.builder().capitalMin(new BigDecimal("100000000000000")));
        assertRejected(
                "limite",
                "maximum",
                "limite 201 exceeds the maximum 200",
                () -> RegisterQuery.builder().limite(201));
        assertRejected(
                "pagina",
                "minimum",
                "pagina 0 is below the minimum 1",
                () -> RegisterQuery.builder().pagina(0));
        assertRejected(
                "cnaes",
                "too-many-values",
                "cnaes has 501 values; the maximum is 500",
                () -> RegisterQuery.builder()
                        .cnaes("4711302")
                        .cnaes(java.util.Collections.nCopies(500, "4711302").toArray(String[]::new)));
    }

    @Test
    void checksRangesWhenBothBoundsAreGivenAndAtBuild() {
        assertRejected(
                "abertura_de",
                "range",
                "abertura_de 2021-01-01 is after abertura_ate 2020-12-31",
                () -> RegisterQuery.builder()
                        .aberturaAte(LocalDate.of(2020, 12, 31))
                        .aberturaDe(LocalDate.of(2021, 1, 1))
                        .build());
        assertRejected(
                "capital_min",
                "range",
                "capital_min 10.00 is above capital_max 5.00",
                () -> RegisterQuery.builder().capital(BigDecimal.TEN, new BigDecimal("5")));
        RegisterQuery fixed = RegisterQuery.builder()
                .aberturaDe(LocalDate.of(2021, 1, 1))
                .aberturaAte(LocalDate.of(2020, 1, 1))
                .aberturaAte(LocalDate.of(2022, 1, 1))
                .build();
        assertEquals(LocalDate.of(2022, 1, 1), fixed.aberturaAte().orElseThrow(), "a setter replaces its value");
    }

    @Test
    void requiresAFilterListingThem() {
        assertRejected(
                "filtro",
                "filter-required",
                "ufs, municipios",
                () -> RegisterQuery.builder().limite(10).countOnly(true).build());
    }
}
