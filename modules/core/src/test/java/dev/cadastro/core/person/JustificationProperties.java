package dev.cadastro.core.person;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Purpose;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The justification rule against a reference written with regular expressions
 * and its own CPF check digits, over texts built from words, numbers written the ways people write
 * CPFs and phones, and e-mail-like tokens.
 */
class JustificationProperties {
    /** A number: digits, with up to three characters that are not letters, digits or @ between digits. */
    private static final Pattern NUMBER = Pattern.compile("\\p{Nd}(?:[^\\p{L}\\p{Nd}@]{0,3}\\p{Nd})*");

    private static final Pattern EMAIL = Pattern.compile("[^\\s@]@[^\\s@.][^\\s@.]*\\.[^\\s@]");

    /** The reference: the first rule broken, in the documented order, or empty. */
    static Optional<Justification.Rule> reference(String text) {
        int length = text.codePointCount(0, text.length());
        if (length < 15) {
            return Optional.of(Justification.Rule.CURTA);
        }
        if (length > 500) {
            return Optional.of(Justification.Rule.LONGA);
        }
        String normalized = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC);
        if (normalized.matches("(?s).*[\\p{Cc}\\p{Cf}].*")) {
            return Optional.of(Justification.Rule.CONTEM_CONTROLE);
        }
        boolean phone = false;
        Matcher m = NUMBER.matcher(normalized);
        while (m.find()) {
            StringBuilder digits = new StringBuilder();
            m.group().codePoints().filter(Character::isDigit).forEach(cp -> digits.append(Character.digit(cp, 10)));
            if (digits.length() == 11 && referenceCpf(digits.toString())) {
                return Optional.of(Justification.Rule.CONTEM_CPF);
            }
            phone |= digits.length() >= 8;
        }
        if (phone) {
            return Optional.of(Justification.Rule.CONTEM_TELEFONE);
        }
        return EMAIL.matcher(text).find() ? Optional.of(Justification.Rule.CONTEM_EMAIL) : Optional.empty();
    }

    /** CPF check digits, written independently of the production Mod11. */
    static boolean referenceCpf(String d) {
        if (d.chars().distinct().count() == 1) {
            return false;
        }
        for (int check = 9; check <= 10; check++) {
            int sum = 0;
            for (int i = 0; i < check; i++) {
                sum += (d.charAt(i) - '0') * (check + 1 - i);
            }
            int digit = (sum * 10) % 11 % 10;
            if (digit != d.charAt(check) - '0') {
                return false;
            }
        }
        return true;
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> word = Arbitraries.of(
                "cliente",
                "abertura",
                "de",
                "conta",
                "analise",
                "credito",
                "R$",
                "1.500,00",
                "em",
                "12/03",
                "KYC",
                "ok");
        Arbitrary<String> digits =
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> cpf = Arbitraries.strings().numeric().ofLength(9).map(nine -> {
            String full = nine + checkDigits(nine);
            return full.substring(0, 3) + "." + full.substring(3, 6) + "." + full.substring(6, 9) + "-"
                    + full.substring(9);
        });
        Arbitrary<String> phone = Arbitraries.strings()
                .numeric()
                .ofLength(8)
                .map(n -> "(11) 9" + n.substring(0, 4) + "-" + n.substring(4));
        Arbitrary<String> email =
                Arbitraries.of("fulano@example.com", "a@b", "@x.com", "x@.com", "nome@dominio.com.br");
        Arbitrary<String> sep = Arbitraries.of(" ", " ", " ", ".", "-", "/", "(", ")", "");
        Arbitrary<String> token = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, word),
                net.jqwik.api.Tuple.of(3, digits),
                net.jqwik.api.Tuple.of(1, cpf),
                net.jqwik.api.Tuple.of(1, phone),
                net.jqwik.api.Tuple.of(1, email));
        return Combinators.combine(token, sep)
                .as((t, s) -> t + s)
                .list()
                .ofMinSize(0)
                .ofMaxSize(14)
                .map(parts -> String.join("", parts));
    }

    private static String checkDigits(String nine) {
        String d = nine;
        for (int check = 9; check <= 10; check++) {
            int sum = 0;
            for (int i = 0; i < check; i++) {
                sum += (d.charAt(i) - '0') * (check + 1 - i);
            }
            d = d + ((sum * 10) % 11 % 10);
        }
        return d.substring(9);
    }

    @Property(tries = 3000)
    void theRuleAgreesWithTheReference(@ForAll("texts") String text) {
        assertEquals(reference(text), Justification.check(text), () -> "text: " + text);
    }

    @Property(tries = 1000)
    void aCallNeverFailsAndRecordsTheSentTextOnlyWhenItPasses(
            @ForAll("texts") String sent, @ForAll boolean withDefault, @ForAll Purpose purpose) {
        Optional<String> accountDefault = withDefault ? Optional.of("Politica interna da conta") : Optional.empty();
        Justification j = Justification.choose(Optional.of(sent), accountDefault, purpose);
        boolean blank = sent.isBlank();
        Optional<Justification.Rule> broken = blank ? Optional.empty() : reference(sent.strip());
        if (!blank && broken.isEmpty()) {
            assertEquals(Justification.Source.ENVIADA, j.source());
            assertEquals(sent.strip(), j.text());
            assertTrue(j.discarded().isEmpty());
        } else {
            assertEquals(
                    withDefault ? Justification.Source.PADRAO_CONTA : Justification.Source.PADRAO_FINALIDADE,
                    j.source());
            assertEquals(withDefault ? "Politica interna da conta" : Justification.defaultText(purpose), j.text());
            assertEquals(broken, j.discarded(), "the warning names the rule broken; none when nothing was sent");
        }
        assertTrue(Justification.check(j.text()).isEmpty() || j.source() != Justification.Source.ENVIADA);
    }

    @Property
    void everyPurposesDefaultTextPassesTheRule(@ForAll Purpose purpose) {
        assertEquals(Optional.empty(), Justification.check(Justification.defaultText(purpose)));
    }

    @Example
    void readsAnyRunOfEightOrMoreDigitsAsAPhoneAndAValidElevenDigitNumberAsACpf() {
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_TELEFONE), Justification.check("contrato 12345678 do cliente"));
        assertEquals(Optional.empty(), Justification.check("contrato 1234567 do cliente"));
        assertEquals(Optional.of(Justification.Rule.CONTEM_CPF), Justification.check("cliente 529.982.247-25 pediu"));
        assertEquals(Optional.of(Justification.Rule.CONTEM_CPF), Justification.check("cliente 52998224725 pediu"));
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_TELEFONE), Justification.check("ligar (11) 91234-5678 amanha"));
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_EMAIL), Justification.check("enviar para ana@empresa.com.br"));
        assertEquals(Optional.of(Justification.Rule.CURTA), Justification.check("curta demais"));
        assertEquals(Optional.of(Justification.Rule.LONGA), Justification.check("a".repeat(501)));
        assertFalse(Justification.check("Abertura de conta corrente").isPresent());
    }

    @Example
    void findsCpfsWrittenInOtherWaysAndRefusesControlCharacters() {
        for (String written : new String[] {
            "Cliente \uff15\uff12\uff19\uff19\uff18\uff12\uff12\uff14\uff17\uff12\uff15 pediu credito",
            "cliente 529,982,247,25 pediu credito",
            "cliente 529_982_247_25 pediu credito",
            "cliente 529 . 982 . 247 - 25 pediu credito"
        }) {
            assertEquals(Optional.of(Justification.Rule.CONTEM_CPF), Justification.check(written), written);
        }
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_TELEFONE), Justification.check("retornar no 1234 - 5678 hoje"));
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_CONTROLE),
                Justification.check("analise de credito\n2026-01-01 | outra linha falsa"));
        assertEquals(
                Optional.of(Justification.Rule.CONTEM_CONTROLE), Justification.check("analise \u001b[31m de credito"));
    }

    @Example
    void nothingSentMeansNoWarning() {
        Justification j = Justification.choose(Optional.empty(), Optional.empty(), Purpose.KYC_CADASTRO);
        assertEquals(Justification.Source.PADRAO_FINALIDADE, j.source());
        assertTrue(j.discarded().isEmpty());
    }
}
