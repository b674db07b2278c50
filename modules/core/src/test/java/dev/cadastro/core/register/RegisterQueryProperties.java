package dev.cadastro.core.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class RegisterQueryProperties {

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of(RegisterQuery.PARAMETERS);
    }

    @Provide
    Arbitrary<String> values() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.of(
                        "SP",
                        "02",
                        "08",
                        "01",
                        "true",
                        "false",
                        "2020-01-01",
                        "4711302",
                        "2135",
                        "11",
                        "100000",
                        "10",
                        "200",
                        "0",
                        "CENTRO",
                        "SAO PAULO"));
    }

    @Property(tries = 2000)
    void anyInputIsAcceptedOrRejectedNamingTheParameter(
            @ForAll("names") String first,
            @ForAll("values") String v1,
            @ForAll("names") String second,
            @ForAll("values") String v2) {
        Map<String, List<String>> p =
                first.equals(second) ? Map.of(first, List.of(v1, v2)) : Map.of(first, List.of(v1), second, List.of(v2));
        try {
            RegisterQuery q = RegisterQuery.parse(p);
            assertEquals(q, RegisterQuery.parse(q.toParameters()), "normalized form parses to the same query");
            for (String name : RegisterQuery.PARAMETERS) {
                assertEquals(q.toParameters().containsKey(name), q.has(name), name);
            }
        } catch (InvalidParameterException e) {
            String field = e.violation().field();
            assertTrue(field.equals(first) || field.equals(second) || field.equals("filtro"), field);
            assertTrue(
                    e.getMessage().startsWith(field)
                            || field.equals("filtro")
                            || e.getMessage().startsWith("parameter"),
                    e.getMessage());
        }
    }
}
