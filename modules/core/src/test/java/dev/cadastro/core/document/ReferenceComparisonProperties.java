package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import br.com.caelum.stella.validation.CNPJValidator;
import br.com.caelum.stella.validation.CPFValidator;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.function.Predicate;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.constraints.br.CNPJ;
import org.hibernate.validator.constraints.br.CPF;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

/**
 * Our CPF and CNPJ validation compared with two reference implementations over many generated inputs:
 * Hibernate Validator 9.1 ({@code @CPF}, {@code @CNPJ} numeric and alphanumeric, called through the
 * public Validation API) and Caelum Stella 2.2 ({@code CPFValidator}, {@code CNPJValidator}).
 *
 * <p>They agree everywhere except where we chose differently on purpose; each difference has a name
 * (see {@link #documentedDifference}, which also checks that our answer is the documented one), is
 * pinned by an example test below, and is counted in the jqwik statistics of each run:
 *
 * <ul>
 *   <li>surrounding whitespace: we trim it; both peers reject it;
 *   <li>lower-case letters in a CNPJ: we normalize them; both peers reject them.
 * </ul>
 *
 * <p>On everything else the generators produce (valid, corrupted, swapped, repeated-digit,
 * partially punctuated, alphanumeric and random inputs) all three give the same answer: all three
 * reject one repeated digit and partial punctuation, and both peers already implement the
 * alphanumeric CNPJ rule.
 */
class ReferenceComparisonProperties {

    private static final Validator HIBERNATE = Validation.byProvider(HibernateValidator.class)
            .configure()
            .messageInterpolator(new ParameterMessageInterpolator())
            .buildValidatorFactory()
            .getValidator();

    private static final CPFValidator STELLA_CPF_FORMATTED = new CPFValidator(true);
    private static final CPFValidator STELLA_CPF_PLAIN = new CPFValidator(false);
    private static final CNPJValidator STELLA_CNPJ_FORMATTED = new CNPJValidator(true);
    private static final CNPJValidator STELLA_CNPJ_PLAIN = new CNPJValidator(false);

    static final class CpfHolder {
        @CPF
        String value;
    }

    static final class NumericCnpjHolder {
        @CNPJ
        String value;
    }

    static final class AlphanumericCnpjHolder {
        @CNPJ(format = CNPJ.Format.ALPHANUMERIC)
        String value;
    }

    static boolean hibernateCpf(String text) {
        return HIBERNATE.validateValue(CpfHolder.class, "value", text).isEmpty();
    }

    static boolean hibernateNumericCnpj(String text) {
        return HIBERNATE.validateValue(NumericCnpjHolder.class, "value", text).isEmpty();
    }

    static boolean hibernateCnpj(String text) {
        return HIBERNATE
                .validateValue(AlphanumericCnpjHolder.class, "value", text)
                .isEmpty();
    }

    static boolean stellaCpf(String text) {
        return STELLA_CPF_FORMATTED.invalidMessagesFor(text).isEmpty()
                || STELLA_CPF_PLAIN.invalidMessagesFor(text).isEmpty();
    }

    static boolean stellaCnpj(String text) {
        return STELLA_CNPJ_FORMATTED.invalidMessagesFor(text).isEmpty()
                || STELLA_CNPJ_PLAIN.invalidMessagesFor(text).isEmpty();
    }

    @Provide
    Arbitrary<String> documentLikeText() {
        return Documents.documentLikeText();
    }

    @Property(tries = 3000)
    void cpfAgreesWithHibernateValidatorExceptDocumentedChoices(@ForAll("documentLikeText") String text) {
        boolean ours = Cpf.isValid(text);
        boolean theirs = hibernateCpf(text);
        String difference =
                ours == theirs ? "agree" : documentedDifference(text, false, ours, theirs, t -> hibernateCpf(t));
        Statistics.label("cpf vs hibernate").collect(difference);
        coverValidInputs("cpf vs hibernate", ours);
        assertFalse(
                difference.equals("unexplained"), () -> "ours " + ours + ", hibernate " + theirs + ": '" + text + "'");
    }

    @Property(tries = 3000)
    void cpfAgreesWithStellaExceptDocumentedChoices(@ForAll("documentLikeText") String text) {
        boolean ours = Cpf.isValid(text);
        boolean theirs = stellaCpf(text);
        String difference =
                ours == theirs ? "agree" : documentedDifference(text, false, ours, theirs, t -> stellaCpf(t));
        Statistics.label("cpf vs stella").collect(difference);
        coverValidInputs("cpf vs stella", ours);
        assertFalse(difference.equals("unexplained"), () -> "ours " + ours + ", stella " + theirs + ": '" + text + "'");
    }

    @Property(tries = 3000)
    void cnpjAgreesWithHibernateValidatorExceptDocumentedChoices(@ForAll("documentLikeText") String text) {
        boolean ours = Cnpj.isValid(text);
        boolean theirs = hibernateCnpj(text);
        String difference =
                ours == theirs ? "agree" : documentedDifference(text, true, ours, theirs, t -> hibernateCnpj(t));
        Statistics.label("cnpj vs hibernate").collect(difference);
        coverValidInputs("cnpj vs hibernate", ours);
        assertFalse(
                difference.equals("unexplained"), () -> "ours " + ours + ", hibernate " + theirs + ": '" + text + "'");
    }

    @Property(tries = 3000)
    void numericCnpjAgreesWithHibernateNumericFormat(@ForAll("documentLikeText") String text) {
        boolean numeric = text.chars().noneMatch(Character::isLetter);
        boolean ours = numeric && Cnpj.isValid(text);
        boolean theirs = hibernateNumericCnpj(text);
        String difference =
                ours == theirs ? "agree" : documentedDifference(text, true, ours, theirs, t -> hibernateNumericCnpj(t));
        Statistics.label("numeric cnpj vs hibernate").collect(difference);
        coverValidInputs("numeric cnpj vs hibernate", ours);
        assertFalse(
                difference.equals("unexplained"), () -> "ours " + ours + ", hibernate " + theirs + ": '" + text + "'");
    }

    @Property(tries = 3000)
    void cnpjAgreesWithStellaExceptDocumentedChoices(@ForAll("documentLikeText") String text) {
        boolean ours = Cnpj.isValid(text);
        boolean theirs = stellaCnpj(text);
        String difference =
                ours == theirs ? "agree" : documentedDifference(text, true, ours, theirs, t -> stellaCnpj(t));
        Statistics.label("cnpj vs stella").collect(difference);
        coverValidInputs("cnpj vs stella", ours);
        assertFalse(difference.equals("unexplained"), () -> "ours " + ours + ", stella " + theirs + ": '" + text + "'");
    }

    /** Makes sure a good share of the inputs are valid documents, so agreement is not only on rejects. */
    private static void coverValidInputs(String comparison, boolean ours) {
        Statistics.label(comparison + ": ours valid").collect(ours);
        Statistics.label(comparison + ": ours valid")
                .coverage(c -> c.check(true).percentage(p -> p >= 5.0));
    }

    /**
     * Why we and a reference answer differently for this text, or {@code "unexplained"}. A difference is
     * excused only when it is one of the documented choices and our answer is the documented one: the
     * reference rejected the text as given, the text differs from its normal form (surrounding whitespace
     * stripped; for a CNPJ, letters upper-cased), and our answer on the text is exactly the reference's
     * answer on that normal form. So accepting " 123 " or rejecting " 111.444.777-35 " stays unexplained.
     */
    static String documentedDifference(
            String text, boolean cnpj, boolean ours, boolean theirs, Predicate<String> reference) {
        if (theirs) {
            return "unexplained"; // both documented differences are texts the references reject
        }
        String stripped = text.strip();
        String normal = cnpj ? asciiUpper(stripped) : stripped;
        if (normal.equals(text) || ours != reference.test(normal)) {
            return "unexplained";
        }
        return stripped.equals(text) ? "lower case: we normalize" : "whitespace: we trim";
    }

    @Test
    void excusesADifferenceOnlyWhenOurAnswerIsTheDocumentedOne() {
        Predicate<String> hibernate = ReferenceComparisonProperties::hibernateCpf;
        assertEquals("whitespace: we trim", documentedDifference(" 111.444.777-35 ", false, true, false, hibernate));
        assertEquals("unexplained", documentedDifference(" 111.444.777-36 ", false, true, false, hibernate));
        assertEquals("unexplained", documentedDifference("111.444.777-36", false, true, false, hibernate));
        Predicate<String> stella = ReferenceComparisonProperties::stellaCnpj;
        assertEquals("lower case: we normalize", documentedDifference("12abc34501de35", true, true, false, stella));
        assertEquals("unexplained", documentedDifference("12abc34501de36", true, true, false, stella));
        assertEquals("unexplained", documentedDifference("12abc34501de35", true, false, true, stella));
    }

    private static String asciiUpper(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
        }
        return sb.toString();
    }

    @Test
    void allThreeRejectRepeatedDigitsAndPartialPunctuation() {
        for (String cpf : new String[] {"111.111.111-11", "99999999999", "000.000.000-00", "111444777-35"}) {
            assertFalse(Cpf.isValid(cpf) || hibernateCpf(cpf) || stellaCpf(cpf), cpf);
        }
        for (String cnpj :
                new String[] {"00.000.000/0000-00", "00000000000000", "11.222.333/000181", "11222333/0001-81"}) {
            assertFalse(Cnpj.isValid(cnpj) || hibernateCnpj(cnpj) || stellaCnpj(cnpj), cnpj);
        }
    }

    @Test
    void onlyWeAcceptLowerCaseAndSurroundingWhitespace() {
        assertTrue(Cnpj.isValid("12abc34501de35"));
        assertFalse(hibernateCnpj("12abc34501de35"));
        assertFalse(stellaCnpj("12abc34501de35"));
        assertTrue(Cpf.isValid(" 111.444.777-35 "));
        assertFalse(hibernateCpf(" 111.444.777-35 "));
        assertFalse(stellaCpf(" 111.444.777-35 "));
    }

    @Test
    void allThreeAgreeOnTheOfficialExampleAndOnClassicCases() {
        for (String valid :
                new String[] {"12.ABC.345/01DE-35", "12ABC34501DE35", "11.222.333/0001-81", "11222333000181"}) {
            assertTrue(Cnpj.isValid(valid) && hibernateCnpj(valid) && stellaCnpj(valid), valid);
        }
        for (String valid : new String[] {"111.444.777-35", "11144477735"}) {
            assertTrue(Cpf.isValid(valid) && hibernateCpf(valid) && stellaCpf(valid), valid);
        }
        assertEquals(false, Cnpj.isValid("12.ABC.345/01DE-36") || hibernateCnpj("12.ABC.345/01DE-36"));
    }
}
