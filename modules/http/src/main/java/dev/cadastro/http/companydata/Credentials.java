package dev.cadastro.http.companydata;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.http.Headers;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one API key a request presents, from its {@code Authorization: Bearer} and {@code X-API-Key}
 * fields: a request that carries two different keys (one header twice, or one in each) is refused
 * with {@code CHAVE_INVALIDA} saying so, rather than silently using one of them; the same key twice is
 * one key. What is handed on is the first value of each header, for the core's {@code Admission} to
 * authenticate.
 */
record Credentials(String authorization, String xApiKey) {
    private static final String BEARER = "bearer ";

    static Credentials of(Headers headers) {
        List<String> authorizations = headers.all("Authorization");
        List<String> apiKeys = headers.all("X-API-Key");
        Set<String> keys = new LinkedHashSet<>();
        Set<String> where = new LinkedHashSet<>();
        for (String value : authorizations) {
            String key = bearer(value);
            if (key != null && !key.isEmpty()) {
                keys.add(key);
                where.add("Authorization");
            }
        }
        for (String value : apiKeys) {
            String key = trimmed(value);
            if (!key.isEmpty()) {
                keys.add(key);
                where.add("X-API-Key");
            }
        }
        if (keys.size() > 1) {
            throw new CadastroException(ErrorCode.CHAVE_INVALIDA, Message.KEY_TWICE.with(String.join(", ", where)));
        }
        return new Credentials(
                authorizations.isEmpty() ? null : authorizations.getFirst(),
                apiKeys.isEmpty() ? null : apiKeys.getFirst());
    }

    /** The key of a {@code Bearer} value, or null for another scheme (which the core refuses itself). */
    private static String bearer(String value) {
        String v = trimmed(value);
        if (v.length() > BEARER.length()
                && v.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return trimmed(v.substring(BEARER.length()));
        }
        return null;
    }

    /** Without the spaces and tabs HTTP allows around a value. */
    private static String trimmed(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }
}
