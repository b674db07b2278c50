package dev.cadastro.core.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ApiKeyTokenTest {

    @Property(tries = 200)
    void everyGeneratedKeyParsesBackToItselfAndMatchesOnlyItsOwnHash(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ApiKeyToken token = ApiKeyToken.generate(random);
        assertEquals(Optional.of(token), ApiKeyToken.parse(token.token()));
        assertTrue(token.matches(token.hash()));
        ApiKeyToken other = ApiKeyToken.generate(random);
        assertFalse(token.matches(other.hash()));
        assertEquals(60, token.token().length());
        assertTrue(ApiKeyToken.isValidPrefix(token.prefix()));
    }

    @Test
    void malformedKeysDoNotParse() {
        ApiKeyToken token = ApiKeyToken.generate(new SplittableRandom(1));
        String good = token.token();
        assertTrue(ApiKeyToken.parse(good).isPresent());
        assertFalse(ApiKeyToken.parse(null).isPresent());
        assertFalse(ApiKeyToken.parse(good.substring(1)).isPresent());
        assertFalse(ApiKeyToken.parse("xad_" + good.substring(4)).isPresent());
        assertFalse(ApiKeyToken.parse(good.substring(0, 59) + "!").isPresent());
        assertFalse(
                ApiKeyToken.parse(good.replace(token.prefix(), token.prefix().toUpperCase()))
                        .isPresent());
    }

    @Test
    void toStringNeverShowsTheSecret() {
        ApiKeyToken token = ApiKeyToken.generate(new SplittableRandom(7));
        assertFalse(token.toString().contains(token.token().substring(17)));
        assertNotEquals(token.token(), token.toString());
    }
}
