package dev.cadastro.core.company;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A batch CNPJ lookup ({@code POST /v1/empresas/lote}): one item per position of the request, in order,
 * and what the batch cost.
 *
 * @param creditsCharged the batch's total ({@code creditos_consumidos})
 * @param balanceAfter the posted balance after the batch
 * @param reference the reference month of the register generation the records were read from
 */
public record BatchLookupOutcome(
        List<Item> items, long creditsCharged, long balanceAfter, Optional<DataReference> reference) {
    public BatchLookupOutcome {
        items = List.copyOf(items);
        Objects.requireNonNull(reference, "reference");
        if (creditsCharged < 0) {
            throw new IllegalArgumentException("credits charged " + creditsCharged + " must not be negative");
        }
    }

    /** The outcome of one position; {@link #status()} is its wire status. */
    public sealed interface Item {
        default String status() {
            return switch (this) {
                case Encontrado e -> "encontrado";
                case NaoEncontrado n -> "nao_encontrado";
                case CnpjInvalido c -> "cnpj_invalido";
                case Duplicado d -> "duplicado";
                case SemCreditos s -> "sem_creditos";
            };
        }

        /**
         * In the register and delivered: 1 credit, or 0 when the account already looked this CNPJ up
         * today (by a single lookup or an earlier batch).
         */
        record Encontrado(Empresa empresa, long creditsCharged) implements Item {
            public Encontrado {
                Objects.requireNonNull(empresa, "empresa");
            }
        }

        /** A valid CNPJ the register does not have; free. */
        record NaoEncontrado(Cnpj cnpj) implements Item {}

        /**
         * Not a CNPJ: its shape or its check digits; free. The reason is the rule broken ({@code
         * required}, {@code format}, {@code characters}, {@code check-digits-numeric}, {@code
         * repeated-digits}, {@code check-digits}), as the single lookup names it.
         */
        record CnpjInvalido(String reason) implements Item {}

        /** The same CNPJ as an earlier position (however each was written), whose item stands for both; free. */
        record Duplicado(int firstPosition) implements Item {}

        /** Found, but the balance ran out at or before this item: nothing delivered, nothing charged. */
        record SemCreditos() implements Item {}
    }
}
