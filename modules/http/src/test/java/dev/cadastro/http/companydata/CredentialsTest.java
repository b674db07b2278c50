package dev.cadastro.http.companydata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.http.Headers;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The key a request presents, read from its fields at the edge before the core authenticates it. */
class CredentialsTest {
    private static final String KEY =
            ApiKeyToken.generate(new SplittableRandom(7)).token();
    private static final String OTHER =
            ApiKeyToken.generate(new SplittableRandom(8)).token();

    private static Headers headers(String authorization, String xApiKey) {
        Headers.Builder b = Headers.builder();
        if (authorization != null) {
            b.add("Authorization", authorization);
        }
        if (xApiKey != null) {
            b.add("X-API-Key", xApiKey);
        }
        return b.build();
    }

    private static CadastroException refused(String authorization, String xApiKey) {
        return assertThrows(CadastroException.class, () -> Credentials.key(headers(authorization, xApiKey)));
    }

    @Test
    void readsTheKeyFromABearerOrFromXApiKey() {
        assertEquals(KEY, Credentials.key(headers("Bearer " + KEY, null)).token());
        assertEquals(KEY, Credentials.key(headers("bEaReR " + KEY, null)).token());
        assertEquals(KEY, Credentials.key(headers(null, KEY)).token());
        assertEquals(KEY, Credentials.key(headers("Bearer " + KEY, KEY)).token(), "the same key twice is one");
    }

    @Test
    void theBearerWinsOverAnXApiKeyThatIsNoKey() {
        assertEquals(KEY, Credentials.key(headers("bearer " + KEY, "   ")).token());
    }

    @Test
    void refusesNoKeyWithSemChave() {
        assertEquals(ErrorCode.SEM_CHAVE, refused(null, null).code());
        assertEquals(ErrorCode.SEM_CHAVE, refused("  ", "").code());
        assertEquals(ErrorCode.SEM_CHAVE, refused(null, " ").code());
    }

    @Test
    void refusesAnotherSchemeUnlessXApiKeyCarriesTheKey() {
        CadastroException e = refused("Basic dXNlcjpwYXNz", null);
        assertEquals(ErrorCode.CHAVE_INVALIDA, e.code());
        assertEquals(Message.AUTHORIZATION_NOT_BEARER, e.text().key());
        assertEquals(KEY, Credentials.key(headers("Basic dXNlcjpwYXNz", KEY)).token());
    }

    @Test
    void refusesTwoDifferentKeys() {
        CadastroException e = refused("Bearer " + KEY, OTHER);
        assertEquals(ErrorCode.CHAVE_INVALIDA, e.code());
        assertEquals(Message.KEY_TWICE, e.text().key());
        Headers twice =
                Headers.builder().add("X-API-Key", KEY).add("X-API-Key", OTHER).build();
        assertEquals(
                Message.KEY_TWICE,
                assertThrows(CadastroException.class, () -> Credentials.key(twice))
                        .text()
                        .key());
    }

    @Test
    void refusesWhatCannotBeOneOfOurKeys() {
        CadastroException e = refused("Bearer not-a-key", null);
        assertEquals(ErrorCode.CHAVE_INVALIDA, e.code());
        assertEquals(Message.KEY_MALFORMED, e.text().key());
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(ints = {0x00, 0x01, 0x0b, 0x0c, 0x1c, 0x1f, 0x7f})
    void rejectsAKeyFollowedByAControlCharacter(int control) {
        String sent = KEY + (char) control;
        assertEquals(ErrorCode.CHAVE_INVALIDA, refused("Bearer " + sent, null).code());
        assertEquals(ErrorCode.CHAVE_INVALIDA, refused(null, sent).code());
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(ints = {0x00, 0x1f})
    void rejectsAKeyPrecededByAControlCharacter(int control) {
        assertEquals(
                ErrorCode.CHAVE_INVALIDA,
                refused("Bearer " + (char) control + KEY, null).code());
    }

    @ParameterizedTest
    @ValueSource(strings = {" ", "\t", " \t "})
    void acceptsTheSpacesAndTabsHttpAllowsAroundAValue(String space) {
        assertEquals(
                KEY,
                Credentials.key(headers("Bearer " + space + KEY + space, null)).token());
        assertEquals(KEY, Credentials.key(headers(null, space + KEY + space)).token());
    }
}
