package dev.cadastro.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.enrichment.BureauAnswers;
import dev.cadastro.core.provider.Allowlist;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a response of enrichment or of a credit report may contain: its own top-level keys, and under
 * {@code dados} only paths of the written allowlist of its provider answer.
 */
record Allowlists(Set<String> topLevel, Allowlist dados) {
    static final Allowlists ENRICHMENT =
            new Allowlists(Set.of("dados", "creditos_consumidos"), BureauAnswers.ALLOWLIST);
    static final Allowlists CREDIT =
            new Allowlists(Set.of("fonte", "consultado_em", "creditos_consumidos", "dados"), CreditAnswers.ALLOWLIST);

    /** Every key path of the body that is not allowed (empty when the body keeps to its lists). */
    static Set<String> outside(JsonNode body, Allowlists lists) {
        Set<String> outside = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e : body.properties()) {
            if (!lists.topLevel().contains(e.getKey())) {
                outside.add(e.getKey());
            } else if (e.getKey().equals("dados")) {
                walk(e.getValue(), "", lists.dados(), outside);
            }
        }
        return outside;
    }

    private static void walk(JsonNode node, String at, Allowlist allowlist, Set<String> outside) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String path = at.isEmpty() ? e.getKey() : at + "." + e.getKey();
                if (allowlist.allows(path)) {
                    walk(e.getValue(), path, allowlist, outside);
                } else {
                    outside.add(path);
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                walk(element, at + "[]", allowlist, outside);
            }
        }
    }
}
