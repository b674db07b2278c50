package dev.cadastro.core.register;

import java.time.YearMonth;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A query of the change feed: the search filters, applied to the new record, and its page; the change
 * types wanted (empty: every type); the month whose changes are asked (empty: the current generation's,
 * against its predecessor).
 */
public record ChangeQuery(RegisterQuery filtros, Set<ChangeType> tipos, Optional<YearMonth> referencia) {
    public ChangeQuery {
        Objects.requireNonNull(filtros, "filtros");
        tipos = tipos.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(tipos));
        Objects.requireNonNull(referencia, "referencia");
    }
}
