package dev.cadastro.core.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.enrichment.BureauAnswers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AllowlistTest {
    private final Allowlist allowlist = Allowlist.of("cnpj", "porte.codigo", "socios[].cpf", "socios[].rep.nome");

    @Test
    void keepsListedLeavesAndTheirParents() {
        Map<String, Object> tree = Map.of(
                "cnpj",
                "x",
                "porte",
                Map.of("codigo", "01"),
                "socios",
                List.of(Map.of("cpf", "1", "rep", Map.of("nome", "A"))));
        assertEquals(tree, allowlist.filter(tree));
    }

    @Test
    void dropsAPartnersHomeAddressAndCountsWhatItDropped() {
        Map<String, Object> socio = new LinkedHashMap<>();
        socio.put("cpf", "1");
        socio.put("endereco_residencial", Map.of("logradouro", "RUA A"));
        socio.put("telefones", List.of("11 99999-0000"));
        Map<String, Object> tree = Map.of("cnpj", "x", "socios", List.of(socio), "novo", 1);

        Allowlist.Filtered f = allowlist.filterCounting(tree);

        assertEquals(Map.of("cnpj", "x", "socios", List.of(Map.of("cpf", "1"))), f.tree());
        assertEquals(3, f.dropped());
        assertEquals(Set.of("novo", "socios[].endereco_residencial", "socios[].telefones"), f.droppedPaths());
        assertFalse(f.droppedPaths().toString().contains("RUA A"));
    }

    @Test
    void dropsAnObjectNestedUnderAListedLeaf() {
        Map<String, Object> tree = Map.of("cnpj", Map.of("dados_pessoais", "x"));
        assertEquals(Map.of(), allowlist.filter(tree));
    }

    @Test
    void allowsListedPathsAndTheirParentsOnly() {
        assertTrue(allowlist.allows("socios"));
        assertTrue(allowlist.allows("socios[]"));
        assertTrue(allowlist.allows("socios[].rep.nome"));
        assertFalse(allowlist.allows("socios[].rep.cpf"));
        assertFalse(allowlist.allows("socios[].endereco_residencial"));
        assertFalse(BureauAnswers.ALLOWLIST.allows("socios[].data_nascimento"));
        assertFalse(BureauAnswers.ALLOWLIST.allows("socios[].nome_mae"));
    }

    @Test
    void rejectsMalformedPaths() {
        assertThrows(IllegalArgumentException.class, () -> Allowlist.of("a..b"));
        assertThrows(IllegalArgumentException.class, () -> Allowlist.of("a[]"));
        assertThrows(IllegalArgumentException.class, () -> Allowlist.of("a", "a.b"));
    }
}
