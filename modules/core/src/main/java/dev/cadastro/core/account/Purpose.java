package dev.cadastro.core.account;

import java.util.Arrays;
import java.util.Optional;

/** The declared purpose ({@code finalidade}) of a person lookup. */
public enum Purpose {
    /** Credit risk evaluation. */
    ANALISE_CREDITO,
    /** Registration checking. */
    KYC_CADASTRO,
    /** Locating a debtor of the organization's own debt. */
    COBRANCA_DIVIDA_PROPRIA,
    /** Fraud-indication checking. */
    PREVENCAO_FRAUDE;

    /** The purpose with this exact wire name, if any (the caller maps absence to FINALIDADE_INVALIDA). */
    public static Optional<Purpose> fromWire(String text) {
        return Arrays.stream(values()).filter(p -> p.name().equals(text)).findFirst();
    }
}
