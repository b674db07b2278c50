package dev.cadastro.core.register;

import java.time.YearMonth;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of the change feed: the items and the page of the search they come from ({@code retornados}
 * is the quantity charged), the month of the changes and the month they are compared with.
 */
public record ChangePage(
        List<Change> itens,
        int pagina,
        int limite,
        long total,
        boolean aproximado,
        Optional<YearMonth> referencia,
        Optional<YearMonth> anterior) {
    public ChangePage {
        itens = List.copyOf(Objects.requireNonNull(itens, "itens"));
        Objects.requireNonNull(referencia, "referencia");
        Objects.requireNonNull(anterior, "anterior");
    }

    public int retornados() {
        return itens.size();
    }
}
