package dev.cadastro.core.register;

import java.util.Locale;
import java.util.Optional;

/**
 * What changed for one CNPJ between a register generation and its predecessor (the monthly change
 * feed). The wire name is the lower-case name: {@code abertura}, {@code baixa}, ...
 */
public enum ChangeType {
    /** New in the register: the CNPJ was not in the previous generation. */
    ABERTURA,
    /** Closed: {@code situacao_cadastral} became {@code 08} (BAIXADA); also a {@link #SITUACAO} change. */
    BAIXA,
    /** {@code situacao_cadastral} changed (old value given). */
    SITUACAO,
    /** Address changed: state, municipality, neighbourhood, CEP or street (old values given). */
    ENDERECO,
    /** Contact changed: the first phone or the e-mail (old values given). */
    CONTATO,
    /** Main CNAE changed (old value given). */
    CNAE,
    /** Company size changed (old value given). */
    PORTE,
    /** Share capital changed (old value given). */
    CAPITAL;

    /** The wire name, {@code abertura}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type of a wire name (any case), or empty. */
    public static Optional<ChangeType> ofWire(String name) {
        for (ChangeType t : values()) {
            if (t.wire().equalsIgnoreCase(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
