package dev.cadastro.core.person;

import dev.cadastro.core.account.Purpose;
import java.util.Optional;

/**
 * Port: the person bureau. Adapters call it under a timeout, a
 * concurrency bound and a circuit breaker, and read its raw answer through {@link PersonAnswers#read},
 * which drops everything outside the written allowlist.
 */
public interface PersonBureau {

    /**
     * The dossier of a person for a declared purpose; empty when the bureau has no data on that person
     * under that purpose.
     *
     * @throws dev.cadastro.core.provider.ProviderUnavailableException on an error, a timeout, a
     *     malformed answer, saturation or an open circuit
     */
    Optional<Dossier> lookup(Subject subject, Purpose purpose);
}
