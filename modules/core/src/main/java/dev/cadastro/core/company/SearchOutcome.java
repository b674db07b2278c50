package dev.cadastro.core.company;

import dev.cadastro.core.register.SearchResult;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a register search delivered and what it cost.
 *
 * @param page the records and the pagination; empty for a count-only search
 * @param countOnly true when only the total was asked ({@code apenas_total=true})
 * @param creditsCharged {@code creditos_consumidos}: the records delivered, 0 for a count-only search
 *     or a replayed idempotency key
 * @param balanceAfter the posted balance after the charge; empty when nothing touched the ledger
 */
public record SearchOutcome(SearchResult page, boolean countOnly, long creditsCharged, OptionalLong balanceAfter) {
    public SearchOutcome {
        Objects.requireNonNull(page, "page");
        Objects.requireNonNull(balanceAfter, "balanceAfter");
        if (creditsCharged < 0 || creditsCharged > page.retornados()) {
            throw new IllegalArgumentException(
                    "credits charged " + creditsCharged + " outside 0.." + page.retornados() + " records delivered");
        }
        if (countOnly && !page.dados().isEmpty()) {
            throw new IllegalArgumentException("a count-only search delivers no records");
        }
    }
}
