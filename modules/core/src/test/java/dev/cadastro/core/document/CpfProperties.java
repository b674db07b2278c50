package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

class CpfProperties {

    /**
     * Positions where the modulo-11 rule itself cannot see every change of one digit: its weights
     * there (10 and 11 at position 0; 5 and 6 at position 5) let the remainders move between 0 and 1,
     * which both give the check digit 0. About 0.2% of such changes keep a CPF valid.
     */
    private static final Set<Integer> BLIND_POSITIONS = Set.of(0, 5);

    @Provide
    Arbitrary<String> validCpfs() {
        return Documents.validCpfs();
    }

    @Provide
    Arbitrary<String> documentLikeText() {
        return Documents.documentLikeText();
    }

    @Property
    void everyGeneratedValidCpfValidates(@ForAll("validCpfs") String digits) {
        String formatted = Oracle.formatCpf(digits);
        assertTrue(Cpf.isValid(digits), digits);
        assertTrue(Cpf.isValid(formatted), formatted);
        assertEquals(digits, Cpf.of(digits).digits());
        assertEquals(digits, Cpf.of(" " + formatted + "\t").digits());
    }

    @Property
    void formattedAndParsedRoundTrip(@ForAll("validCpfs") String digits) {
        Cpf cpf = Cpf.of(digits);
        assertEquals(Oracle.formatCpf(digits), cpf.formatted());
        assertEquals(cpf, Cpf.of(cpf.formatted()));
        assertEquals(cpf, Cpf.of(cpf.canonical()));
    }

    @Property
    void aChangeOfOneDigitIsRejectedWhereverTheRuleCanSeeIt(
            @ForAll("validCpfs") String digits,
            @ForAll @IntRange(min = 0, max = 10) int position,
            @ForAll @IntRange(min = 1, max = 9) int delta) {
        char changed = (char) ('0' + (digits.charAt(position) - '0' + delta) % 10);
        String mutated = Documents.replaceAt(digits, position, changed);
        assertEquals(Oracle.cpfValid(mutated), Cpf.isValid(mutated), mutated);
        assertEquals(
                Oracle.cpfValid(mutated), Cpf.parse(Oracle.formatCpf(mutated)).isValid(), mutated);
        if (!BLIND_POSITIONS.contains(position)) {
            assertFalse(Cpf.isValid(mutated), mutated);
        }
    }

    @Property
    void withCheckDigitsComputesTheRuleCheckDigits(@ForAll("validCpfs") String digits) {
        assertEquals(digits, Cpf.withCheckDigits(digits.substring(0, 9)).digits());
    }

    @Property
    void isValidAgreesWithParseAndTheOracle(@ForAll("documentLikeText") String text) {
        boolean valid = Cpf.isValid(text);
        assertEquals(valid, Cpf.parse(text).isValid(), text);
        String stripped = text.strip();
        String canonical = stripped.length() == 14 && stripped.matches("\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}")
                ? stripped.replaceAll("[.-]", "")
                : stripped;
        assertEquals(Oracle.cpfValid(canonical), valid, text);
    }

    @Property
    void parseNeverThrowsAndNamesTheField(@ForAll @StringLength(max = 30) String text) {
        switch (Cpf.parse(text)) {
            case Parsed.Valid<Cpf> v -> assertTrue(Cpf.isValid(text));
            case Parsed.Invalid<Cpf> i -> {
                assertEquals(Cpf.FIELD, i.violation().field());
                assertFalse(Cpf.isValid(text));
            }
        }
    }
}
