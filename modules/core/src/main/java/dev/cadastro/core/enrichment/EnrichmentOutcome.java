package dev.cadastro.core.enrichment;

import java.util.Objects;

/**
 * What an enrichment delivered and what it cost.
 *
 * @param creditsCharged 5, or 0 when the account already enriched this CNPJ the same day
 * @param balanceAfter the account's posted credit balance after the charge
 */
public record EnrichmentOutcome(BureauCompany enrichment, long creditsCharged, long balanceAfter) {
    public EnrichmentOutcome {
        Objects.requireNonNull(enrichment, "enrichment");
    }
}
