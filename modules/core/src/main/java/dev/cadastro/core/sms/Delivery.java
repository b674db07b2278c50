package dev.cadastro.core.sms;

import java.util.Locale;

/**
 * Where the SMS of a dispatch stands with the provider, and so where its SMS credit stands: the credit
 * is held while {@link #ENVIANDO}, charged once {@link #ACEITO}, released on {@link #INDISPONIVEL} and
 * {@link #INCERTO}, and charged then returned on {@link #FALHOU}.
 */
public enum Delivery {
    /** The hold is placed and the provider was called; it has not answered yet. */
    ENVIANDO,
    /** The provider accepted the message: the credit is charged. */
    ACEITO,
    /** The provider was unavailable: nothing charged, and the phone's throttle does not count it. */
    INDISPONIVEL,
    /** The provider accepted it, then reported that delivery failed: the credit was returned, once. */
    FALHOU,
    /**
     * The server stopped between the hold and the provider's answer; after the lease the hold is
     * released (nothing charged), but the phone's throttle still counts it: the message may have gone out.
     */
    INCERTO;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Delivery ofWire(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }

    /** Whether a dispatch in this state counts against the phone's 30-second and hourly limits. */
    public boolean countsAgainstThrottle() {
        return this != INDISPONIVEL;
    }

    /**
     * Whether the client may know the dispatch: it got its {@code envio_id} (accepted, failed later),
     * or may have (the answer was lost with the server). A dispatch still sending or refused by an
     * unavailable provider was never answered with its id, so checks of it are {@code NAO_ENCONTRADO}.
     */
    public boolean checkable() {
        return this == ACEITO || this == FALHOU || this == INCERTO;
    }

    /** SMS credits this dispatch costs in the end: 1 when accepted and delivered (or not yet reported). */
    public long netCharge() {
        return this == ACEITO ? 1 : 0;
    }
}
