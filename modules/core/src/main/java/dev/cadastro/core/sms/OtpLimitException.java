package dev.cadastro.core.sms;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

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
                Message.OTP_LIMIT.with(
                        phoneMasked,
                        OtpThrottle.SPACING.toSeconds(),
                        OtpThrottle.PER_HOUR,
                        Math.max(1, retryAfterSeconds)),
                Message.RETRY_AFTER.with(Math.max(1, retryAfterSeconds)));
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
