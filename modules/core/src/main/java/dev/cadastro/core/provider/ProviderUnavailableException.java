package dev.cadastro.core.provider;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
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
                "the provider " + provider + " is unavailable: " + failure.description(),
                retryAfter == null ? null : "try again in " + wholeSeconds(retryAfter) + " s",
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
        ERROR("it answered with an error"),
        TIMEOUT("it did not answer in time"),
        MALFORMED("its answer failed validation"),
        SATURATED("too many calls to it are in flight"),
        CIRCUIT_OPEN("it failed repeatedly and is not called for a while");

        private final String description;

        Failure(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }
}
