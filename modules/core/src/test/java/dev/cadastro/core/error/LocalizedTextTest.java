package dev.cadastro.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.Violation;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalizedTextTest {

    @Test
    void rendersPortugueseForEveryLanguageButEnglish() {
        LocalizedText t = Message.MAXIMUM.with("limite", 500, 200);
        assertEquals("limite 500 excede o máximo 200", t.render(Messages.PORTUGUESE));
        assertEquals("limite 500 excede o máximo 200", t.render(Locale.FRENCH));
        assertEquals("limite 500 excede o máximo 200", t.render(Locale.ROOT));
        assertEquals("limite 500 exceeds the maximum 200", t.render(Locale.US));
        assertEquals("limite 500 exceeds the maximum 200", t.english());
    }

    @Test
    void rendersANestedTextInTheSameLanguage() {
        Violation v = ((Parsed.Invalid<Cpf>) Cpf.parse("123")).violation();
        assertEquals(
                "cpf '123' deve ter 11 dígitos, sem pontuação ou como NNN.NNN.NNN-NN; tem 3 caracteres",
                v.message(Messages.PORTUGUESE));
        assertEquals("cpf '123' must have 11 digits, plain or as NNN.NNN.NNN-NN; it has 3 characters", v.message());
    }

    @Test
    void argumentsAreShownVerbatimEvenWithBracesOrQuotes() {
        LocalizedText t = Message.FIELD_REQUIRED.with("{1}'x'");
        assertEquals("{1}'x' is required", t.english());
        assertEquals("{1}'x' é obrigatório", t.render(Messages.PORTUGUESE));
    }

    @Test
    void encodedTextsDecodeToTheSameKeyAndArguments() {
        LocalizedText t = Message.MAILING_INTERRUPTED.with(3);
        assertEquals(Optional.of(t), LocalizedText.decode(t.encode()));
        LocalizedText none = Message.MAILING_NOT_WRITTEN.with();
        assertEquals(Optional.of(none), LocalizedText.decode(none.encode()));
    }

    @Test
    void textsStoredBeforeKeysExistedDoNotDecode() {
        assertEquals(Optional.empty(), LocalizedText.decode("the export could not be written; nothing was charged"));
        assertEquals(Optional.empty(), LocalizedText.decode("MAILING_INTERRUPTED"));
        assertEquals(Optional.empty(), LocalizedText.decode(null));
    }
}
