package dev.cadastro.core.document;

import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/**
 * A Brazilian taxpayer number: a {@link Cpf} (a person) or a {@link Cnpj} (an establishment).
 *
 * <p>{@link #parse} tells them apart by shape, never by trying both: after trimming, 11 characters
 * or the mask {@code NNN.NNN.NNN-NN} are read as a CPF; 14 other characters or the mask {@code
 * NN.NNN.NNN/NNNN-NN} as a CNPJ. Any other length is neither, and the violation says so.
 */
public sealed interface TaxId permits Cpf, Cnpj {
    /** The field name used in violations for text that is neither a CPF nor a CNPJ by its length. */
    String DOCUMENT_FIELD = "documento";

    /** The canonical form: digits (and upper-case letters for an alphanumeric CNPJ), no punctuation. */
    String canonical();

    /** The masked form: {@code NNN.NNN.NNN-NN} or {@code NN.NNN.NNN/NNNN-NN}. */
    String formatted();

    /**
     * Parses untrusted text as a CPF or a CNPJ, chosen by its shape. A violation from the chosen type
     * names the field {@code cpf} or {@code cnpj}; text of no known shape gives a {@code format}
     * violation of field {@value #DOCUMENT_FIELD}.
     */
    static Parsed<TaxId> parse(CharSequence text) {
        if (text == null) {
            return Parsed.invalid(DOCUMENT_FIELD, Violation.REQUIRED, Message.FIELD_REQUIRED.with(DOCUMENT_FIELD));
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        if (len <= 0) {
            return Parsed.invalid(DOCUMENT_FIELD, Violation.REQUIRED, Message.FIELD_REQUIRED.with(DOCUMENT_FIELD));
        }
        if (looksLikeCpf(text, from, len)) {
            return Cpf.parse(text).map(TaxId.class::cast);
        }
        if (len == Cnpj.LENGTH || len == Cnpj.FORMATTED_LENGTH) {
            return Cnpj.parse(text).map(TaxId.class::cast);
        }
        return Parsed.invalid(DOCUMENT_FIELD, Violation.FORMAT, Message.TAX_ID_FORMAT.with(Texts.quote(text), len));
    }

    /** True when the text is a valid CPF or CNPJ (chosen by shape as in {@link #parse}); allocates nothing. */
    static boolean isValid(CharSequence text) {
        if (text == null) {
            return false;
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        return looksLikeCpf(text, from, len) ? Cpf.isValid(text) : Cnpj.isValid(text);
    }

    /** Throws {@link InvalidDocumentException} when the text is neither a valid CPF nor a valid CNPJ. */
    static TaxId of(CharSequence text) {
        return parse(text).orThrow();
    }

    private static boolean looksLikeCpf(CharSequence text, int from, int len) {
        return len == Cpf.LENGTH
                || (len == Cpf.FORMATTED_LENGTH
                        && text.charAt(from + 3) == '.'
                        && text.charAt(from + 7) == '.'
                        && text.charAt(from + 11) == '-');
    }
}
