package dev.cadastro.core.sms;

import java.util.Objects;

/**
 * The answer to a check.
 *
 * @param valid whether this check accepted the code ({@code valido})
 * @param status the code's status after the check
 * @param remainingAttempts checks left ({@code tentativas_restantes}): 0 unless pending
 */
public record OtpCheck(boolean valid, OtpStatus status, int remainingAttempts) {
    public OtpCheck {
        Objects.requireNonNull(status, "status");
    }
}
