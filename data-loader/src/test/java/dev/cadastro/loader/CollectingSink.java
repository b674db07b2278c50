package dev.cadastro.loader;

import dev.cadastro.core.register.Establishment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A sink that keeps every establishment by CNPJ, failing on a CNPJ delivered twice. */
final class CollectingSink implements EstablishmentSink {
    final Map<String, Establishment> byCnpj = new ConcurrentHashMap<>();

    @Override
    public void add(Establishment e) {
        if (byCnpj.putIfAbsent(e.cnpj().value(), e) != null) {
            throw new IllegalStateException("delivered twice: " + e.cnpj());
        }
    }

    Establishment get(String cnpj) {
        return byCnpj.get(cnpj);
    }
}
