package dev.cadastro.core.calls.push;

/** A push destination that the {@link DestinationPolicy} refuses; the message names the option that would allow it. */
public final class DestinationRefusedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public DestinationRefusedException(String message) {
        super(message);
    }
}
