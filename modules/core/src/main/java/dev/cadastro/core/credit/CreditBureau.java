package dev.cadastro.core.credit;

import dev.cadastro.core.document.TaxId;
import java.util.Optional;

/**
 * Port: the credit bureau. Adapters call it under a timeout, a
 * concurrency bound and a circuit breaker, check its answer against the report allowlist and read
 * it into a {@link CreditReport}.
 */
public interface CreditBureau {

    /**
     * The normalized credit report on a CPF or a CNPJ; empty when the bureau has nothing on it.
     *
     * @throws dev.cadastro.core.provider.ProviderUnavailableException on an error, a timeout, a
     *     malformed answer, saturation or an open circuit
     */
    Optional<CreditReport> report(TaxId document);
}
