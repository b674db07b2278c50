package dev.cadastro.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTreeTest {

    private static String text(Object tree) {
        return new String(Json.bytes(g -> JsonTree.write(g, tree)), StandardCharsets.UTF_8);
    }

    @Test
    void writesObjectsInTheirIterationOrderWithEveryKindOfValue() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("z", "texto \"citado\" e acentuação");
        tree.put("a", List.of(1, 2L, new BigInteger("123456789012345678901234567890")));
        tree.put("valor", new BigDecimal("1500.00"));
        tree.put("ativo", true);
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        tree.put("nada", withNull);
        tree.put("vazio", Map.of());
        assertEquals(
                "{\"z\":\"texto \\\"citado\\\" e acentuação\",\"a\":[1,2,123456789012345678901234567890],"
                        + "\"valor\":1500.00,\"ativo\":true,\"nada\":[null],\"vazio\":{}}",
                text(tree));
    }

    @Test
    void keepsTheScaleOfAmountsAndNeverUsesExponents() {
        assertEquals(
                "[0.10,1500000.00,100]",
                text(List.of(new BigDecimal("0.10"), new BigDecimal("1.5E+6").setScale(2), new BigDecimal("1E+2"))));
    }

    @Test
    void refusesValuesThatAreNotJson() {
        assertThrows(IllegalArgumentException.class, () -> text(List.of(LocalDate.of(2026, 1, 2))));
        assertThrows(IllegalArgumentException.class, () -> text(Map.of(1, "chave numérica")));
        assertThrows(IllegalArgumentException.class, () -> text(List.of(Double.NaN)));
    }
}
