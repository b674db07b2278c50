package dev.cadastro.core.sms;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.provider.ProviderUnavailableException;
import java.time.Duration;
import java.util.Optional;

/**
 * The SMS provider could not take the message ({@link ErrorCode#SMS_INDISPONIVEL}): it failed, timed
 * out, was saturated or its circuit is open. Nothing was charged and the phone's throttle did not count
 * the attempt.
 */
public final class SmsUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final transient Duration retryAfter;

    public SmsUnavailableException(ProviderUnavailableException cause) {
        super(
                ErrorCode.SMS_INDISPONIVEL,
                Message.SMS_UNAVAILABLE.with(cause.failure().description()),
                cause.detailText().orElse(null),
                cause);
        this.retryAfter = cause.retryAfter().orElse(null);
    }

    /** When the provider's circuit is open: how long until it is tried again. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
