package dev.cadastro.core.document;

import java.util.Objects;

/**
 * A broken rule: the field it concerns, a stable rule token (for example {@code check-digits}) and a
 * message for people that names the value and the rule.
 */
public record Violation(String field, String rule, String message) {
    public Violation {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
    }
}
