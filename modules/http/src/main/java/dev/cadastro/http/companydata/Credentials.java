package dev.cadastro.http.companydata;

import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.http.Headers;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one API key a request presents, read from its {@code Authorization: Bearer} and {@code X-API-Key}
 * fields here, at the edge, so the core authenticates a key and never sees a header (ADR 0043).
 *
 * <p>A request that carries two different keys (one header twice, or one in each) is refused with
 * {@code CHAVE_INVALIDA} saying so, rather than silently using one of them; the same key twice is one
 * key. Otherwise the first value of each header counts: {@code Authorization: Bearer <key>} wins over
 * {@code X-API-Key}; another scheme is {@code CHAVE_INVALIDA} unless {@code X-API-Key} carries the key;
 * neither is {@code SEM_CHAVE}. The spaces and tabs HTTP allows around a value are dropped; any other
 * control character makes the key invalid.
 */
final class Credentials {
    private static final String BEARER = "bearer ";
    private static final String AUTHORIZATION = "Authorization";
    private static final String X_API_KEY = "X-API-Key";

    private Credentials() {}

    /**
     * The key the request presents, parsed.
     *
     * @throws CadastroException {@code SEM_CHAVE} when neither field carries a key, {@code CHAVE_INVALIDA}
     *     when they carry two, when {@code Authorization} is another scheme, or when the value cannot be
     *     one of our keys
     */
    static ApiKeyToken key(Headers headers) {
        List<String> authorizations = headers.all(AUTHORIZATION);
        List<String> apiKeys = headers.all(X_API_KEY);
        Set<String> keys = new LinkedHashSet<>();
        Set<String> where = new LinkedHashSet<>();
        for (String value : authorizations) {
            String key = bearer(value);
            if (key != null && !key.isEmpty()) {
                keys.add(key);
                where.add(AUTHORIZATION);
            }
        }
        for (String value : apiKeys) {
            String key = trimmed(value);
            if (!key.isEmpty()) {
                keys.add(key);
                where.add(X_API_KEY);
            }
        }
        if (keys.size() > 1) {
            throw new CadastroException(ErrorCode.CHAVE_INVALIDA, Message.KEY_TWICE.with(String.join(", ", where)));
        }
        String presented = presented(
                authorizations.isEmpty() ? null : authorizations.getFirst(),
                apiKeys.isEmpty() ? null : apiKeys.getFirst());
        return ApiKeyToken.presented(presented);
    }

    /**
     * The key text of the first {@code Authorization} and {@code X-API-Key} values (each null when
     * absent): the bearer's when it is one, otherwise {@code X-API-Key}'s.
     */
    static String presented(String authorization, String xApiKey) {
        if (!blank(authorization)) {
            if (authorization.length() > BEARER.length()
                    && authorization
                            .substring(0, BEARER.length())
                            .toLowerCase(Locale.ROOT)
                            .equals(BEARER)) {
                return withoutControlCharacters(authorization.substring(BEARER.length()));
            }
            if (blank(xApiKey)) {
                throw invalid(Message.AUTHORIZATION_NOT_BEARER.with());
            }
        }
        if (blank(xApiKey)) {
            throw new CadastroException(ErrorCode.SEM_CHAVE, Message.NO_KEY.with());
        }
        return withoutControlCharacters(xApiKey);
    }

    /** The key of a {@code Bearer} value, or null for another scheme (refused by {@link #presented}). */
    private static String bearer(String value) {
        String v = trimmed(value);
        if (v.length() > BEARER.length()
                && v.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return trimmed(v.substring(BEARER.length()));
        }
        return null;
    }

    /**
     * The value without the spaces and tabs HTTP allows around it (RFC 9110, section 5.5). Any other
     * control character makes the key invalid: {@link String#strip()} would drop {@code U+001F} and
     * its kin, and a host that trims them would accept {@code <key>\u001F} as the key itself.
     */
    private static String withoutControlCharacters(String value) {
        String v = trimmed(value);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw invalid(Message.KEY_CONTROL_CHARACTER.with(String.format(Locale.ROOT, "%04X", (int) c)));
            }
        }
        return v;
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

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static CadastroException invalid(LocalizedText message) {
        return new CadastroException(ErrorCode.CHAVE_INVALIDA, message);
    }
}
