package dev.cadastro.core.person;

import dev.cadastro.core.error.LocalizedText;
import java.util.Optional;

/**
 * A person lookup as the client sent it, before any check: exactly one of {@code cpf} and {@code
 * telefone}, the purpose's wire name, the optional justification. The use case checks them in the
 * contract's order.
 *
 * @param malformed what is wrong with the request's shape (an unknown field, a wrong type), reported as
 *     {@code PARAMETRO_INVALIDO} at the identifier's turn, after the key's and the purpose's checks
 */
public record PersonRequest(
        Optional<String> cpf,
        Optional<String> telefone,
        Optional<String> finalidade,
        Optional<String> justificativa,
        Optional<LocalizedText> malformed) {
    /** A well-formed request. */
    public PersonRequest(
            Optional<String> cpf,
            Optional<String> telefone,
            Optional<String> finalidade,
            Optional<String> justificativa) {
        this(cpf, telefone, finalidade, justificativa, Optional.empty());
    }

    public PersonRequest {
        malformed = malformed == null ? Optional.empty() : malformed;
        cpf = cpf == null ? Optional.empty() : cpf;
        telefone = telefone == null ? Optional.empty() : telefone;
        finalidade = finalidade == null ? Optional.empty() : finalidade;
        justificativa = justificativa == null ? Optional.empty() : justificativa;
    }

    @Override
    public String toString() {
        return "PersonRequest[" + finalidade.orElse("-") + "]";
    }
}
