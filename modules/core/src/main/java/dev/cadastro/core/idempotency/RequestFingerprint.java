package dev.cadastro.core.idempotency;

import dev.cadastro.core.internal.Texts;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What makes two requests "the same request" for an idempotency key: a SHA-256 over the operation
 * (method and route template) and the request's normalized content, each part length-prefixed so
 * that no two different inputs share an encoding. Build it from the parsed request, not the raw
 * bytes: {@code ufs=SP&ufs=RJ} and {@code ufs=RJ&ufs=SP}, or a JSON body with its keys in another
 * order, are then the same request when the operation treats them the same.
 */
public record RequestFingerprint(String hex) {
    public RequestFingerprint {
        Objects.requireNonNull(hex, "hex");
        if (hex.length() != 64) {
            throw new IllegalArgumentException("a fingerprint is 64 hex digits, not " + hex.length());
        }
    }

    /**
     * The fingerprint of an operation with named values.
     *
     * @param operation the method and route template, e.g. {@code GET /v1/empresas}
     * @param parameters each name with its values in the order that matters to the operation (sort
     *     them first where it does not)
     */
    public static RequestFingerprint of(String operation, Map<String, List<String>> parameters) {
        SortedMap<String, List<String>> sorted = new TreeMap<>(parameters);
        StringBuilder canonical = new StringBuilder(64);
        part(canonical, operation);
        canonical.append(sorted.size()).append('|');
        sorted.forEach((name, values) -> {
            part(canonical, name);
            canonical.append(values.size()).append('|');
            values.forEach(v -> part(canonical, v));
        });
        return new RequestFingerprint(
                HexFormat.of().formatHex(Texts.sha256(canonical.toString().getBytes(StandardCharsets.UTF_8))));
    }

    private static void part(StringBuilder sb, String text) {
        sb.append(text.length()).append(':').append(text);
    }
}
