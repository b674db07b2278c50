package dev.cadastro.register;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.register.SearchResult;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The core's {@link RegisterSearch} port over the published register index under a root directory.
 * Follows {@code root/CURRENT}; switches to a newly published generation without failing in-flight or
 * new queries. Thread-safe.
 */
public final class LuceneRegister implements RegisterSearch, AutoCloseable {

    private LuceneRegister() {}

    /** Opens the generation {@code root/CURRENT} names, with {@link SearchOptions#defaults()}. */
    public static LuceneRegister open(Path root) {
        return open(root, SearchOptions.defaults());
    }

    public static LuceneRegister open(Path root, SearchOptions options) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Checks {@code CURRENT} now and switches when a newer generation was published; true if it did. */
    public boolean refresh() {
        throw new UnsupportedOperationException("being implemented");
    }

    /** The generation queries are answered from. */
    public PublishedIndex published() {
        throw new UnsupportedOperationException("being implemented");
    }

    @Override
    public SearchResult search(RegisterQuery query) {
        throw new UnsupportedOperationException("being implemented");
    }

    @Override
    public CountResult count(RegisterQuery query) {
        throw new UnsupportedOperationException("being implemented");
    }

    @Override
    public Optional<Empresa> lookup(Cnpj cnpj) {
        throw new UnsupportedOperationException("being implemented");
    }

    @Override
    public void close() {}
}
