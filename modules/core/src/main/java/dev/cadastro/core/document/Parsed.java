package dev.cadastro.core.document;

import dev.cadastro.core.error.LocalizedText;
import java.util.Objects;
import java.util.function.Function;

/**
 * The outcome of parsing untrusted text into a value: either the value, or the {@link Violation} that
 * says which field broke which rule. Parsing never throws for bad input.
 */
public sealed interface Parsed<T> {

    /** The input was valid. */
    record Valid<T>(T value) implements Parsed<T> {
        public Valid {
            Objects.requireNonNull(value, "value");
        }
    }

    /** The input broke a rule. */
    record Invalid<T>(Violation violation) implements Parsed<T> {
        public Invalid {
            Objects.requireNonNull(violation, "violation");
        }
    }

    static <T> Parsed<T> valid(T value) {
        return new Valid<>(value);
    }

    static <T> Parsed<T> invalid(String field, String rule, LocalizedText message) {
        return new Invalid<>(new Violation(field, rule, message));
    }

    default boolean isValid() {
        return this instanceof Valid<T>;
    }

    /** The value, or a {@link InvalidDocumentException} carrying the violation. */
    default T orThrow() {
        return switch (this) {
            case Valid<T> v -> v.value();
            case Invalid<T> i -> throw new InvalidDocumentException(i.violation());
        };
    }

    /**
     * The value, or {@code other} when the input broke a rule: with {@link #map}, the canonical form of
     * what parses and the text as sent otherwise ({@code Cpf.parse(s).map(Cpf::canonical).orElse(s)}).
     */
    default T orElse(T other) {
        return this instanceof Valid<T> v ? v.value() : other;
    }

    default <R> Parsed<R> map(Function<? super T, ? extends R> mapper) {
        return switch (this) {
            case Valid<T> v -> new Valid<>(mapper.apply(v.value()));
            case Invalid<T> i -> new Invalid<>(i.violation());
        };
    }
}
