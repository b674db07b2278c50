package dev.cadastro.loader;

import dev.cadastro.core.register.Establishment;

/**
 * Where the loader delivers establishments: the register's index builder in production. Called from
 * {@link LoadOptions#indexThreads()} threads at once, so it must be thread-safe.
 */
@FunctionalInterface
public interface EstablishmentSink {
    void add(Establishment establishment) throws Exception;
}
