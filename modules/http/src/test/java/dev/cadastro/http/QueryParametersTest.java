package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryParametersTest {

    @Test
    void keepsEveryValueOfARepeatedParameterInOrder() {
        QueryParameters q = QueryParameters.parse("ufs=SP&limite=10&ufs=RJ&ufs=MG", 100);
        assertEquals(List.of("SP", "RJ", "MG"), q.all("ufs"));
        assertEquals(List.of("ufs", "limite"), List.copyOf(q.asMap().keySet()));
        assertEquals("10", q.first("limite").orElseThrow());
    }

    @Test
    void readsANameWithoutValueAsEmptyAndSkipsEmptyPairs() {
        QueryParameters q = QueryParameters.parse("mei&&ufs=", 100);
        assertEquals(List.of(""), q.all("mei"));
        assertEquals(List.of(""), q.all("ufs"));
        assertEquals(2, q.asMap().size());
    }

    @Test
    void decodesNamesAndValues() {
        QueryParameters q = QueryParameters.parse("bai%72ros=Vila+Ol%C3%ADmpia", 100);
        assertEquals(List.of("Vila Olímpia"), q.all("bairros"));
    }

    @Test
    void rejectsAnEmptyName() {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> QueryParameters.parse("=SP", 100));
        assertEquals("empty-name", e.violation().rule());
    }

    @Test
    void rejectsMoreParametersThanTheLimit() {
        String query = "ufs=SP&".repeat(11);
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> QueryParameters.parse(query, 10));
        assertEquals("max-parameters", e.violation().rule());
        assertTrue(e.getMessage().contains("10"), e.getMessage());
    }

    @Test
    void namesTheParameterWhoseValueIsBadlyEncoded() {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> QueryParameters.parse("ufs=SP&bairros=%C3%28", 10));
        assertEquals("bairros", e.violation().field());
    }
}
