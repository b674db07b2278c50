package dev.cadastro.core.error;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Root of every failure the core reports to a caller. Each subtype is named after the failure and
 * carries a stable {@link ErrorCode}; adapters translate the code, never the class.
 *
 * <p>The message is meant for the client: it names the value, the limit and the knob (for example
 * {@code "limite 500 excede o máximo 200"}). It is kept as a {@link LocalizedText} so the HTTP adapter
 * renders it in the request's language ({@link #message(Locale)}); {@link #getMessage()} is the
 * English text, for logs and the command line. The optional detail adds context that is safe to show.
 */
public class CadastroException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final transient LocalizedText message;
    private final transient LocalizedText detail;

    public CadastroException(ErrorCode code, LocalizedText message) {
        this(code, message, null, null);
    }

    public CadastroException(ErrorCode code, LocalizedText message, LocalizedText detail) {
        this(code, message, detail, null);
    }

    public CadastroException(ErrorCode code, LocalizedText message, LocalizedText detail, Throwable cause) {
        super(Objects.requireNonNull(message, "message").english(), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.message = message;
        this.detail = detail;
    }

    /** The stable code clients program against. */
    public ErrorCode code() {
        return code;
    }

    /** The message as a key and arguments, to render in any language. */
    public LocalizedText text() {
        return message;
    }

    /** The message in {@code locale}'s language (Portuguese unless it is English). */
    public String message(Locale locale) {
        return message.render(locale);
    }

    /** Optional extra context, safe to show to the client, in English. */
    public Optional<String> detail() {
        return detailText().map(LocalizedText::english);
    }

    /** Optional extra context as a key and arguments. */
    public Optional<LocalizedText> detailText() {
        return Optional.ofNullable(detail);
    }

    /** Optional extra context in {@code locale}'s language. */
    public Optional<String> detail(Locale locale) {
        return detailText().map(t -> t.render(locale));
    }
}
