package dev.cadastro.core.person;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A batch person lookup: one item per input position, in order, and what the batch cost.
 *
 * @param creditsCharged the batch's total ({@code creditos_consumidos})
 * @param balanceAfter the posted balance after the batch
 */
public record BatchOutcome(List<Item> items, Justification justification, long creditsCharged, long balanceAfter) {
    public BatchOutcome {
        items = List.copyOf(items);
        Objects.requireNonNull(justification, "justification");
    }

    /** The outcome of one position; {@link #status()} is its wire status. */
    public sealed interface Item {
        default String status() {
            return switch (this) {
                case Concluido c -> "concluido";
                case CpfInvalido c -> "cpf_invalido";
                case Duplicado d -> "duplicado";
                case SemDados s -> "sem_dados";
                case SemCreditos s -> "sem_creditos";
                case FornecedorIndisponivel f -> "fornecedor_indisponivel";
            };
        }

        /**
         * Delivered and charged; {@code withheld} when an earlier run of the same batch already charged
         * and delivered this item (a retry that took over after a lost answer): {@code dados} is then
         * empty and is not delivered again.
         */
        record Concluido(Map<String, Object> dados, long creditsCharged, boolean withheld) implements Item {
            @Override
            public String toString() {
                return "Concluido[" + creditsCharged + "]";
            }
        }

        /**
         * Not a CPF, or its check digits fail; not charged. The reason is the rule broken: a CPF's
         * ({@code required}, {@code format}, {@code check-digits}, ...), or {@link #TYPE} for an item
         * that is not a JSON string at all (a number, say).
         */
        record CpfInvalido(String reason) implements Item {
            /** The reason of an item that is not a string: a CPF is sent as a string. */
            public static final String TYPE = "type";
        }

        /** The same CPF as an earlier position, whose item stands for both (charged once). */
        record Duplicado(int firstPosition) implements Item {}

        /** No data for the person under the purpose; not charged. */
        record SemDados() implements Item {}

        /** The balance ran out at or before this item; not charged. */
        record SemCreditos() implements Item {}

        /** The bureau failed for this item; not charged. */
        record FornecedorIndisponivel() implements Item {}
    }
}
