package dev.cadastro.core.mailing;

import dev.cadastro.core.register.CountResult;
import java.util.Objects;

/**
 * What an export would take, answered without making it ({@link MailingService#estimate}).
 *
 * @param count the filter's count, exact or estimated ({@code aproximado}), as a count-only search answers it
 * @param quantidade the quantity the estimate is for
 * @param creditsHeld the credits {@link MailingService#create} would hold for the same request now: min(quantidade,
 *     total), quantidade when the total is an estimate, and at least 1
 */
public record MailingEstimate(CountResult count, int quantidade, long creditsHeld) {
    public MailingEstimate {
        Objects.requireNonNull(count, "count");
        if (creditsHeld < 1) {
            throw new IllegalArgumentException("an export holds at least 1 credit, not " + creditsHeld);
        }
    }
}
