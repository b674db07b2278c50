package dev.cadastro.core.enrichment;

import dev.cadastro.core.register.DataReference;
import java.util.Objects;
import java.util.Optional;

/**
 * What an enrichment delivered and what it cost.
 *
 * @param creditsCharged 5, or 0 when the account already enriched this CNPJ the same day
 * @param balanceAfter the account's posted credit balance after the charge
 * @param reference the reference month of the register generation the answer was read from; empty when
 *     it recorded none
 */
public record EnrichmentOutcome(
        BureauCompany enrichment, long creditsCharged, long balanceAfter, Optional<DataReference> reference) {
    public EnrichmentOutcome {
        Objects.requireNonNull(enrichment, "enrichment");
        Objects.requireNonNull(reference, "reference");
    }
}
