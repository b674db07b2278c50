package dev.cadastro.core.company;

import dev.cadastro.core.register.Empresa;
import java.util.Objects;

/**
 * What a CNPJ lookup delivered and what it cost.
 *
 * @param empresa the record
 * @param creditsCharged {@code creditos_consumidos}: 1, or 0 when the account already looked this CNPJ
 *     up today (America/Sao_Paulo)
 * @param balanceAfter the posted balance after the call
 */
public record LookupOutcome(Empresa empresa, long creditsCharged, long balanceAfter) {
    public LookupOutcome {
        Objects.requireNonNull(empresa, "empresa");
        if (creditsCharged < 0) {
            throw new IllegalArgumentException("credits charged " + creditsCharged + " must not be negative");
        }
    }
}
