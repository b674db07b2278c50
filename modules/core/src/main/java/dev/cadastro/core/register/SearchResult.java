package dev.cadastro.core.register;

import java.util.List;
import java.util.Objects;

/**
 * One page of a register search: the records ({@code dados}) and the {@code paginacao} object of the
 * answer. {@code retornados} is the number of records on this page and the quantity charged.
 *
 * @param total establishments matching the filters; an estimate when {@code aproximado}
 * @param aproximado true when {@code total} is a sampled estimate (see {@link CountResult})
 */
public record SearchResult(
        List<Empresa> dados, int pagina, int limite, int retornados, long total, boolean aproximado) {

    public SearchResult {
        dados = List.copyOf(Objects.requireNonNull(dados, "dados"));
        if (retornados != dados.size()) {
            throw new IllegalArgumentException(
                    "retornados " + retornados + " differs from the " + dados.size() + " records of the page");
        }
        if (pagina < 1 || limite < 1 || retornados > limite || total < 0) {
            throw new IllegalArgumentException("inconsistent page: pagina " + pagina + ", limite " + limite
                    + ", retornados " + retornados + ", total " + total);
        }
    }
}
