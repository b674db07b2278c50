package dev.cadastro.core.enrichment;

import dev.cadastro.core.document.Cnpj;
import java.util.Optional;

/**
 * Port: the partner bureau that enriches a company record. Adapters
 * call the outside bureau under a timeout, a concurrency bound and a circuit breaker, check its
 * answer against the enrichment allowlist and read it into a {@link BureauCompany}.
 */
public interface CompanyBureau {

    /**
     * What the bureau knows of this establishment; empty when it knows nothing of it.
     *
     * @throws dev.cadastro.core.provider.ProviderUnavailableException on an error, a timeout, a
     *     malformed answer, saturation or an open circuit
     */
    Optional<BureauCompany> company(Cnpj cnpj);
}
