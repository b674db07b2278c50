package dev.cadastro.core.sms;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;

/**
 * Too many codes for one phone ({@link ErrorCode#LIMITE_OTP}): one every 30 seconds, 5 per hour, per
 * account and phone. Carries the whole seconds until the next send is allowed ({@code Retry-After}).
 */
public final class OtpLimitException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final long retryAfterSeconds;

    public OtpLimitException(String phoneMasked, long retryAfterSeconds) {
        super(
                ErrorCode.LIMITE_OTP,
                "telefone " + phoneMasked + " reached the limit of 1 code every " + OtpThrottle.SPACING.toSeconds()
                        + " s and " + OtpThrottle.PER_HOUR + " per hour; retry after " + retryAfterSeconds + " s",
                "retry after " + retryAfterSeconds + " s");
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
