package dev.cadastro.core.company;

import dev.cadastro.core.register.ChangePage;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a page of the change feed delivered and what it cost, as {@link SearchOutcome} for a search.
 *
 * @param page the items and the pagination; no item for a count-only query
 * @param countOnly true when only the total was asked ({@code apenas_total=true})
 * @param creditsCharged the items delivered, 0 for a count-only query
 * @param balanceAfter the posted balance after the charge; empty when nothing touched the ledger
 */
public record ChangeOutcome(ChangePage page, boolean countOnly, long creditsCharged, OptionalLong balanceAfter) {
    public ChangeOutcome {
        Objects.requireNonNull(page, "page");
        Objects.requireNonNull(balanceAfter, "balanceAfter");
        if (creditsCharged < 0 || creditsCharged > page.retornados()) {
            throw new IllegalArgumentException(
                    "credits charged " + creditsCharged + " outside 0.." + page.retornados() + " items delivered");
        }
    }
}
