package dev.cadastro.core.register;

import java.time.Instant;
import java.time.YearMonth;
import java.util.Objects;

/**
 * How fresh the register is: the reference month of the Receita Federal dump the served generation was
 * loaded from ({@code X-Dados-Referencia: 2026-11}), and when that generation was published.
 *
 * @param month the dump's reference month, as the loader recorded it
 * @param publishedAt when the generation was published
 */
public record DataReference(YearMonth month, Instant publishedAt) {
    /** The response header that carries {@link #month()} on every answer read from the register. */
    public static final String HEADER = "X-Dados-Referencia";

    public DataReference {
        Objects.requireNonNull(month, "month");
        Objects.requireNonNull(publishedAt, "publishedAt");
    }

    /** {@code 2026-11}. */
    public String wire() {
        return month.toString();
    }
}
