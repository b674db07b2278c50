package dev.cadastro.providers.calls;

import java.util.Optional;

/**
 * A line of a calls file broke a rule: the message names the line, the field and the rule ({@code line
 * 3: field duracao_gravacao -5 must be ...}). Nothing of the file was imported.
 */
public final class CallFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final String field;

    CallFileException(int line, String field, String rule) {
        super("line " + line + ": " + (field == null ? "" : "field " + field + " ") + rule);
        this.line = line;
        this.field = field;
    }

    /** The line, counted from 1. */
    public int line() {
        return line;
    }

    /** The field that broke the rule, when one did (a line that is not JSON has none). */
    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
