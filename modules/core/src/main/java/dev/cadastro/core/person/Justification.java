package dev.cadastro.core.person;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The justification an audit row records: the text the client sent when it
 * passes {@link #check}, otherwise the account's default, otherwise the purpose's default text. The call
 * never fails because of it; {@link #discarded()} says which rule a sent text broke, for the answer's
 * warning {@code JUSTIFICATIVA_INVALIDA}.
 *
 * @param text what the audit row records
 * @param source where {@code text} came from
 * @param discarded the rule the sent text broke, when one was sent and discarded
 */
public record Justification(String text, Source source, Optional<Rule> discarded) {
    /** The fewest characters a sent justification may have. */
    public static final int MIN_LENGTH = 15;

    /** The most characters the audit trail keeps; a longer text is discarded, not cut. */
    public static final int MAX_LENGTH = 500;

    /** The fewest digits of a number read as a phone. */
    public static final int PHONE_DIGITS = 8;

    public Justification {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(discarded, "discarded");
    }

    /** Where the recorded justification came from. */
    public enum Source {
        /** The text the request sent. */
        ENVIADA,
        /** The account's default justification. */
        PADRAO_CONTA,
        /** The purpose's default text. */
        PADRAO_FINALIDADE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A rule a sent justification broke. */
    public enum Rule {
        CURTA(Message.JUSTIFICATION_SHORT.with(MIN_LENGTH)),
        LONGA(Message.JUSTIFICATION_LONG.with(MAX_LENGTH)),
        CONTEM_CONTROLE(Message.JUSTIFICATION_CONTROL.with()),
        CONTEM_CPF(Message.JUSTIFICATION_CPF.with()),
        CONTEM_TELEFONE(Message.JUSTIFICATION_PHONE.with(PHONE_DIGITS)),
        CONTEM_EMAIL(Message.JUSTIFICATION_EMAIL.with());

        private final LocalizedText text;

        Rule(LocalizedText text) {
            this.text = text;
        }

        /** The rule as the warning states it, in any language. */
        public LocalizedText text() {
            return text;
        }

        /** The rule as the warning states it: "the justification has fewer than 15 characters". */
        public String description() {
            return text.english();
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The justification to record.
     *
     * @param sent the request's text; absent or blank counts as not sent (no warning)
     * @param accountDefault the account's default justification, if any
     */
    public static Justification choose(Optional<String> sent, Optional<String> accountDefault, Purpose purpose) {
        Objects.requireNonNull(sent, "sent");
        Objects.requireNonNull(accountDefault, "accountDefault");
        Objects.requireNonNull(purpose, "purpose");
        Optional<Rule> broken = Optional.empty();
        if (sent.isPresent() && !sent.get().isBlank()) {
            String text = sent.get().strip();
            broken = check(text);
            if (broken.isEmpty()) {
                return new Justification(text, Source.ENVIADA, Optional.empty());
            }
        }
        Optional<String> fallback = accountDefault.filter(s -> !s.isBlank());
        if (fallback.isPresent()) {
            return new Justification(fallback.get().strip(), Source.PADRAO_CONTA, broken);
        }
        return new Justification(defaultText(purpose), Source.PADRAO_FINALIDADE, broken);
    }

    /**
     * The first rule the text breaks, in this order: length (at least {@value #MIN_LENGTH}, at most
     * {@value #MAX_LENGTH} characters), then control characters, a CPF, a phone, an e-mail.
     *
     * <p>The text is read after NFKC normalization (full-width digits are digits). A control or
     * formatting character breaks the rule {@link Rule#CONTEM_CONTROLE}. A number is a run of digits in
     * which up to {@value #MAX_SEPARATORS} characters that are neither letters, digits nor {@code @} may
     * sit between digits, as people write CPFs and phones ({@code 123.456.789-09}, {@code (11)
     * 91234-5678}, {@code 529 . 982 . 247 - 25}, {@code 529,982,247,25}). A number
     * of 11 digits that is a valid CPF is a CPF; any other number of {@value #PHONE_DIGITS} or more digits
     * is read as a phone, as the contract says. An e-mail is a {@code @} with a non-blank part before it and
     * a dotted domain after it.
     */
    public static Optional<Rule> check(String text) {
        Objects.requireNonNull(text, "text");
        int length = text.codePointCount(0, text.length());
        if (length < MIN_LENGTH) {
            return Optional.of(Rule.CURTA);
        }
        if (length > MAX_LENGTH) {
            return Optional.of(Rule.LONGA);
        }
        // Kept text goes to an append-only audit trail and an operator's terminal: no control characters
        // (a newline would fake a row), and digits however they are written (full-width, other scripts).
        int[] cps =
                Normalizer.normalize(text, Normalizer.Form.NFKC).codePoints().toArray();
        for (int cp : cps) {
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT) {
                return Optional.of(Rule.CONTEM_CONTROLE);
            }
        }
        boolean phone = false;
        int i = 0;
        while (i < cps.length) {
            if (!Character.isDigit(cps[i])) {
                i++;
                continue;
            }
            StringBuilder digits = new StringBuilder();
            int j = i;
            while (j < cps.length) {
                if (Character.isDigit(cps[j])) {
                    digits.append((char) ('0' + Character.digit(cps[j], 10)));
                    j++;
                    continue;
                }
                int k = j;
                while (k < cps.length && k - j < MAX_SEPARATORS && isSeparator(cps[k])) {
                    k++;
                }
                if (k > j && k < cps.length && Character.isDigit(cps[k])) {
                    j = k;
                } else {
                    break;
                }
            }
            if (digits.length() == 11 && Cpf.isValid(digits)) {
                return Optional.of(Rule.CONTEM_CPF);
            }
            if (digits.length() >= PHONE_DIGITS) {
                phone = true;
            }
            i = j;
        }
        if (phone) {
            return Optional.of(Rule.CONTEM_TELEFONE);
        }
        if (containsEmail(text)) {
            return Optional.of(Rule.CONTEM_EMAIL);
        }
        return Optional.empty();
    }

    /** Between two digits, up to this many characters that are neither letters, digits nor {@code @}. */
    static final int MAX_SEPARATORS = 3;

    private static boolean isSeparator(int cp) {
        return !Character.isLetterOrDigit(cp) && cp != '@';
    }

    private static boolean containsEmail(String text) {
        for (int at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
            boolean local = at > 0 && !Character.isWhitespace(text.charAt(at - 1)) && text.charAt(at - 1) != '@';
            int end = at + 1;
            while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != '@') {
                end++;
            }
            String domain = text.substring(at + 1, end);
            int dot = domain.indexOf('.');
            if (local && dot > 0 && dot < domain.length() - 1) {
                return true;
            }
        }
        return false;
    }

    /** The purpose's default text, recorded when neither the request nor the account gives one. */
    public static String defaultText(Purpose purpose) {
        return switch (purpose) {
            case ANALISE_CREDITO -> "Avaliacao de risco de credito do titular, finalidade contratada ANALISE_CREDITO";
            case KYC_CADASTRO -> "Verificacao cadastral do titular (KYC), finalidade contratada KYC_CADASTRO";
            case COBRANCA_DIVIDA_PROPRIA ->
                "Localizacao de devedor de divida propria, finalidade contratada COBRANCA_DIVIDA_PROPRIA";
            case PREVENCAO_FRAUDE -> "Verificacao de indicios de fraude, finalidade contratada PREVENCAO_FRAUDE";
        };
    }

    @Override
    public String toString() {
        return "Justification[" + source
                + discarded.map(r -> ", discarded " + r).orElse("") + "]";
    }
}
