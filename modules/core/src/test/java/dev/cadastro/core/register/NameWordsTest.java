package dev.cadastro.core.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NameWordsTest {
    @Test
    void foldsAccentsAndCaseAndCutsAtAnythingButLettersAndDigits() {
        assertEquals(
                List.of("JOAO", "CONCEICAO", "AUTO", "PECAS", "S", "A"),
                NameWords.split("João  conceição AUTO-PEÇAS S/A"));
        assertEquals(List.of("AEROPORTO", "SS", "OE", "O"), NameWords.split("Æroporto ß Œ Ø"));
        assertEquals(List.of("LOJA", "BOA", "24H"), NameWords.split("LOJA \u201CBOA\u201D \u2013 24h"));
        assertEquals(List.of(), NameWords.split(null));
    }

    @Test
    void indexesDistinctWordsWithoutStopWordsOneLetterWordsOrNumbers() {
        assertEquals(
                Set.of("PADARIA", "SAO", "JOSE", "PAES"),
                NameWords.indexed("PADARIA SÃO JOSÉ LTDA ME", "PÃES DE SÃO JOSÉ E CIA 12345678901"));
        assertTrue(NameWords.ignored("LTDA"));
        assertTrue(NameWords.ignored("E"));
        assertTrue(NameWords.ignored("2024"));
        assertFalse(NameWords.ignored("24H"));
    }

    @Test
    void aNameSearchKeepsItsWordsAndTakesTheLastAsThePrefix() {
        RegisterQuery q = RegisterQuery.builder()
                .buscaTextual("  Padaria de São  Jo ltda")
                .build();
        assertEquals(
                new RegisterQuery.NameSearch(List.of("PADARIA", "SAO"), "JO"),
                q.buscaTextual().orElseThrow());
        assertEquals(
                "PADARIA SAO JO",
                q.filterValues().get(RegisterQuery.Filter.BUSCA_TEXTUAL).get(0));
        RegisterQuery again =
                RegisterQuery.builder().buscaTextual("PADARIA SAO JO").build();
        assertEquals(q, again, "the canonical text reads back the same");
    }

    @Test
    void refusesTooManyWordsShortWordsAndOnlyIgnoredWords() {
        assertRule("too-many-words", "um dois tres quatro cinco seis sete oito nove dez onze");
        assertRule("word-too-short", "padaria a");
        assertRule("no-words", "LTDA ME 123");
        assertRule("too-long", "x".repeat(201));
        assertRule("characters", "padaria\u0000");
        assertEquals(
                10,
                RegisterQuery.builder()
                                .buscaTextual("um dois tres quatro cinco seis sete oito nove dez")
                                .build()
                                .buscaTextual()
                                .orElseThrow()
                                .words()
                                .size()
                        + 1);
    }

    private static void assertRule(String rule, String text) {
        InvalidParameterException e = org.junit.jupiter.api.Assertions.assertThrows(
                InvalidParameterException.class, () -> RegisterQuery.builder().buscaTextual(text));
        assertEquals(
                "busca_textual " + rule,
                e.violation().field() + " " + e.violation().rule(),
                e.getMessage());
    }
}
