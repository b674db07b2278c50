package dev.cadastro.core.register;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One item of the change feed: the establishment as the new generation holds it, what changed, and the
 * previous values of the changed fields, keyed by the record's field names ({@code situacao_cadastral},
 * {@code uf}, {@code municipio}, {@code bairro}, {@code cep}, {@code logradouro}, {@code telefone},
 * {@code email}, {@code cnae}, {@code porte}, {@code capital_social}); a value absent in the previous
 * generation is an empty string.
 */
public record Change(Empresa empresa, Set<ChangeType> tipos, Map<String, String> anteriores) {
    public Change {
        Objects.requireNonNull(empresa, "empresa");
        tipos = Set.copyOf(tipos);
        anteriores = Map.copyOf(anteriores);
    }
}
