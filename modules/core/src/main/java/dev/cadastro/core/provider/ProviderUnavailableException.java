package dev.cadastro.core.provider;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * An outside provider could not give a usable answer: it failed, timed out, answered garbage, was
 * saturated, or its circuit is open. Code {@code FORNECEDOR_INDISPONIVEL}: the use case charges and
 * caches nothing. The message names the provider and the failure, never the document asked about.
 */
public final class ProviderUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final Failure failure;
    private final transient Duration retryAfter;

    public ProviderUnavailableException(String provider, Failure failure, Duration retryAfter, Throwable cause) {
        super(
                ErrorCode.FORNECEDOR_INDISPONIVEL,
                Message.PROVIDER_UNAVAILABLE.with(provider, failure.description()),
                retryAfter == null ? null : Message.RETRY_AFTER.with(wholeSeconds(retryAfter)),
                cause);
        this.provider = Objects.requireNonNull(provider, "provider");
        this.failure = Objects.requireNonNull(failure, "failure");
        this.retryAfter = retryAfter;
    }

    /**
     * A wait in whole seconds, rounded up and at least 1: what {@code Retry-After} says, so the message
     * and the header agree.
     */
    public static long wholeSeconds(Duration wait) {
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    /** The provider's name, e.g. {@code bureau}. */
    public String provider() {
        return provider;
    }

    public Failure failure() {
        return failure;
    }

    /** When the circuit is open: how long until the provider is probed again. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** How the call failed. */
    public enum Failure {
        ERROR(Message.PROVIDER_FAILURE_ERROR),
        TIMEOUT(Message.PROVIDER_FAILURE_TIMEOUT),
        MALFORMED(Message.PROVIDER_FAILURE_MALFORMED),
        SATURATED(Message.PROVIDER_FAILURE_SATURATED),
        CIRCUIT_OPEN(Message.PROVIDER_FAILURE_CIRCUIT_OPEN);

        private final Message description;

        Failure(Message description) {
            this.description = description;
        }

        /** What happened, in words for people. */
        public LocalizedText description() {
            return description.with();
        }
    }
}
