package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.error.Messages;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class AcceptLanguageTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "en",
                "EN",
                "en-US",
                "en-GB, pt;q=0.5",
                "pt-BR;q=0.8, en;q=0.9",
                "fr, en;q=0.5",
                "fr-CA, de;q=0.9, en-US;q=0.1",
                " en ; q=1.0 ",
                "en;q=1, pt-BR;q=1",
                "*;q=0.1, en"
            })
    void answersInEnglishWhenEnglishIsPreferred(String header) {
        assertEquals(Locale.ENGLISH, AcceptLanguage.resolve(header));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "pt-BR",
                "pt",
                "pt-PT",
                "pt-BR;q=0.9, en;q=0.8",
                "pt-BR, en",
                "en;q=0",
                "en;q=0.000",
                "fr",
                "*",
                "*, en;q=0.5",
                "en;q=0, fr",
                "de-DE, fr;q=0.9",
                "garbage!!",
                ";;;,,,",
                "en;q=2",
                "en;q=abc",
                "en;q=0.5;q",
                "en-",
                "-en",
                "e n",
                "\u00e9n",
                "en_US",
                "toolongprimarytag-en"
            })
    void answersInPortugueseOtherwise(String header) {
        assertEquals(Messages.PORTUGUESE, AcceptLanguage.resolve(header));
    }

    @ParameterizedTest
    @NullAndEmptySource
    void absentOrEmptyIsPortuguese(String header) {
        assertEquals(Messages.PORTUGUESE, AcceptLanguage.resolve(header));
    }

    @ParameterizedTest
    @ValueSource(ints = {1025, 100_000})
    void anOversizedHeaderIsPortugueseWithoutParsing(int length) {
        String header = "en," + "x".repeat(length);
        assertEquals(Messages.PORTUGUESE, AcceptLanguage.resolve(header));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fr", "pt;q=0.4"})
    void readsEveryLineOfARepeatedField(String first) {
        assertEquals(Locale.ENGLISH, AcceptLanguage.resolve(List.of(first, "en;q=0.5")));
    }
}
