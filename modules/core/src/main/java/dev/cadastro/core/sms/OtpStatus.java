package dev.cadastro.core.sms;

import java.util.Locale;

/** Where a one-time code stands, as clients read it in {@code status}. */
public enum OtpStatus {
    /** Sent and still checkable: not used, not expired, attempts left. */
    PENDENTE,
    /** A check matched; the code is spent and every later check answers {@code valido: false}. */
    VERIFICADO,
    /** The term requested at sending has passed without a match. */
    EXPIRADO,
    /** The fifth wrong check blocked it. */
    BLOQUEADO;

    /** The value on the wire: the constant in lower case. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant whose {@link #wire()} is {@code wire}. */
    public static OtpStatus ofWire(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }
}
