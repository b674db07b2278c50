package dev.cadastro.core.provider;

import java.util.Objects;

/**
 * A provider's answer failed validation: a required field is missing, or a field has the wrong type,
 * format or range. Thrown while reading an answer; the provider adapter turns it into {@link
 * ProviderUnavailableException} with {@link ProviderUnavailableException.Failure#MALFORMED}, so it
 * counts against the provider's circuit breaker. The message names the path (e.g. {@code
 * socios[2].cpf}) and the rule, never the value (it may be personal data).
 */
public final class MalformedAnswerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String path;

    public MalformedAnswerException(String path, String rule) {
        super("provider answer field " + path + ": " + rule);
        this.path = Objects.requireNonNull(path, "path");
    }

    /** The path of the offending field, {@code a.b[3].c}. */
    public String path() {
        return path;
    }
}
