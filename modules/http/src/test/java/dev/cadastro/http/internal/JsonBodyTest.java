package dev.cadastro.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Request bodies beyond jackson's read constraints are the client's fault, naming the field. */
class JsonBodyTest {
    private static Map<String, Object> read(String json) {
        return JsonBody.object(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aNumberOfAThousandDigitsIsRead() {
        String digits = "9".repeat(1000);
        assertEquals(
                new BigInteger(digits), read("{\"quantidade\":" + digits + "}").get("quantidade"));
    }

    @Test
    void aNumberOfMoreThanAThousandDigitsIsAParameterErrorNamingTheField() {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> read("{\"quantidade\":" + "9".repeat(1001) + "}"));
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals("quantidade", e.violation().field());
        String message = e.message(java.util.Locale.ENGLISH);
        assertTrue(message.contains("quantidade") && message.contains("1001"), message);
    }

    @Test
    void aNestedFieldIsNamedByItsPath() {
        InvalidParameterException e = assertThrows(
                InvalidParameterException.class,
                () -> read("{\"filtros\":{\"capital\":[1," + "1".repeat(1500) + "]}}"));
        assertEquals("filtros.capital.1", e.violation().field());
    }
}
