package dev.cadastro.core.idempotency;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.util.Objects;

/**
 * An idempotency key chosen by a client ({@code Idempotency-Key} over HTTP): 1 to {@value #MAX_LENGTH}
 * printable ASCII characters without spaces. It is scoped to the account that sent it.
 */
public record ClientKey(String value) {
    /** The longest key accepted, as Stripe and the IETF draft's examples allow. */
    public static final int MAX_LENGTH = 255;

    public ClientKey {
        Objects.requireNonNull(value, "value");
        if (!valid(value)) {
            throw new IllegalArgumentException("client key of " + value.length() + " characters is not 1 to "
                    + MAX_LENGTH + " printable ASCII characters without spaces");
        }
    }

    /**
     * Parses a key as the client sent it.
     *
     * @param field how the client sent the key (the header's name), named in the error
     * @throws InvalidParameterException {@code PARAMETRO_INVALIDO} naming the field and the rule
     */
    public static ClientKey parse(String field, String value) {
        if (value == null || !valid(value)) {
            throw InvalidParameterException.of(
                    field,
                    "format",
                    Message.IDEMPOTENCY_KEY_FORMAT.with(field, Texts.quote(value == null ? "" : value), MAX_LENGTH));
        }
        return new ClientKey(value);
    }

    private static boolean valid(String value) {
        return !value.isEmpty() && value.length() <= MAX_LENGTH && Texts.isPrintableAscii(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
