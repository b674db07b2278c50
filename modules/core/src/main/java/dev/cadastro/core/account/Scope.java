package dev.cadastro.core.account;

import java.util.Arrays;
import java.util.Optional;

/** The scopes of the company-data API (docs/rules.md): what a key may access. */
public enum Scope {
    /** Company search and lookup. */
    EMPRESAS_READ("empresas:read"),
    /** Volume estimate, following exports, downloading the file. */
    MAILING_READ("mailing:read"),
    /** Creating mailing exports (consumes credits). */
    MAILING_EXPORT("mailing:export"),
    /** Bureau enrichment (consumes credits). */
    ENRIQUECIMENTO_READ("enriquecimento:read"),
    /** Person lookup by CPF or phone (consumes credits); also needs the key's individual release. */
    PESSOAS_READ("pessoas:read"),
    /** Credit report by CPF or CNPJ (consumes credits). */
    CREDITO_READ("credito:read"),
    /** Sending and checking SMS codes (consumes SMS credits). */
    SMS_OTP("sms:otp");

    private final String wire;

    Scope(String wire) {
        this.wire = wire;
    }

    /** The scope as the contract writes it, e.g. {@code empresas:read}. */
    public String wire() {
        return wire;
    }

    /** The scope with this wire name, if any. */
    public static Optional<Scope> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(text)).findFirst();
    }

    /** The scope with this wire name, or an exception that lists the accepted names. */
    public static Scope parse(String text) {
        return fromWire(text == null ? null : text.strip())
                .orElseThrow(() -> new IllegalArgumentException("scope '" + text + "' is not one of "
                        + Arrays.stream(values()).map(Scope::wire).toList()));
    }
}
