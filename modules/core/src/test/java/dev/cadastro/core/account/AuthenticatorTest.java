package dev.cadastro.core.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AuthenticatorTest {
    private static final String KEY =
            ApiKeyToken.generate(new SplittableRandom(7)).token();

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(ints = {0x00, 0x01, 0x0b, 0x0c, 0x1c, 0x1f, 0x7f})
    void rejectsAKeyFollowedByAControlCharacter(int control) {
        String sent = KEY + (char) control;
        for (String[] headers : new String[][] {{"Bearer " + sent, null}, {null, sent}}) {
            CadastroException e =
                    assertThrows(CadastroException.class, () -> Authenticator.token(headers[0], headers[1]));
            assertEquals(ErrorCode.CHAVE_INVALIDA, e.code(), e.getMessage());
        }
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(ints = {0x00, 0x1f})
    void rejectsAKeyPrecededByAControlCharacter(int control) {
        CadastroException e = assertThrows(
                CadastroException.class, () -> Authenticator.token("Bearer " + (char) control + KEY, null));
        assertEquals(ErrorCode.CHAVE_INVALIDA, e.code());
    }

    @ParameterizedTest
    @ValueSource(strings = {" ", "\t", " \t "})
    void acceptsTheSpacesAndTabsHttpAllowsAroundAValue(String space) {
        assertEquals(
                KEY, Authenticator.token("Bearer " + space + KEY + space, null).token());
        assertEquals(KEY, Authenticator.token(null, space + KEY + space).token());
    }
}
