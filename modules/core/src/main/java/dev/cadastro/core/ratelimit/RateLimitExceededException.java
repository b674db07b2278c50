package dev.cadastro.core.ratelimit;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import java.util.Objects;

/**
 * A limit was reached: {@link ErrorCode#LIMITE_MINUTO} or {@link ErrorCode#LIMITE_DIARIO}. Carries the
 * state of both windows and how long to wait, in whole seconds, at least 1.
 */
public class RateLimitExceededException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final transient RateLimitDecision decision;
    private final long retryAfterSeconds;

    public RateLimitExceededException(
            ErrorCode code, LocalizedText message, RateLimitDecision decision, long retryAfterSeconds) {
        super(code, message, Message.RETRY_AFTER.with(Math.max(1, retryAfterSeconds)));
        if (code != ErrorCode.LIMITE_MINUTO && code != ErrorCode.LIMITE_DIARIO) {
            throw new IllegalArgumentException("a rate limit is LIMITE_MINUTO or LIMITE_DIARIO, not " + code);
        }
        this.decision = Objects.requireNonNull(decision, "decision");
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public RateLimitDecision decision() {
        return decision;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
