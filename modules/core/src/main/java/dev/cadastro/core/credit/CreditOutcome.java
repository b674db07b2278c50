package dev.cadastro.core.credit;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * What a credit report delivered and what it cost.
 *
 * @param fonte where the answer came from
 * @param consultadoEm when the bureau produced it (for a cached answer: the account's earlier fetch)
 * @param creditsCharged 10, or 0 when the account already paid for this document this month
 * @param balanceAfter the account's posted credit balance after the charge
 */
public record CreditOutcome(
        CreditReport report, Source fonte, Instant consultadoEm, long creditsCharged, long balanceAfter) {
    public CreditOutcome {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(fonte, "fonte");
        Objects.requireNonNull(consultadoEm, "consultadoEm");
    }

    /** Where a delivered report came from. */
    public enum Source {
        BUREAU,
        CACHE;

        /** {@code bureau} or {@code cache}, as the response says it. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
