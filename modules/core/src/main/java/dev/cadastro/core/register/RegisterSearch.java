package dev.cadastro.core.register;

import dev.cadastro.core.document.Cnpj;
import java.util.Optional;

/**
 * Port: search, count and lookup over the published register index. Implemented by the register
 * adapter (Lucene); used by the HTTP adapter and the mailing export.
 *
 * <p>Implementations are thread-safe and keep answering while a new index generation is published.
 */
public interface RegisterSearch {

    /**
     * One page of records in a deterministic order that is stable across pages of the same published
     * index, with the total. For {@link RegisterQuery#countOnly()} queries the page is empty.
     *
     * @throws dev.cadastro.core.error.InvalidParameterException when a municipality cannot be resolved
     */
    SearchResult search(RegisterQuery query);

    /** The number of matches, exact or a flagged estimate; never reads a stored record. */
    CountResult count(RegisterQuery query);

    /** The establishment with this CNPJ, when the published index has it. */
    Optional<Empresa> lookup(Cnpj cnpj);
}
