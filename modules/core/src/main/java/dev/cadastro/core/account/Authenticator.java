package dev.cadastro.core.account;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.time.SaoPauloTime;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: turns the raw {@code Authorization} and {@code X-API-Key} header values of a request into
 * a {@link Principal}, or throws the contract's 401/403 codes: {@code SEM_CHAVE} (no key sent),
 * {@code CHAVE_INVALIDA} (not one of our keys, unknown, or wrong secret), {@code CHAVE_REVOGADA}
 * (revoked) and {@code API_DESATIVADA} (the account's API is disabled).
 *
 * <p>{@code Authorization: Bearer <key>} wins when both headers are sent. Each call reads the store,
 * so a revocation is effective on the next request. Request handlers use {@link
 * dev.cadastro.core.ratelimit.Admission}, which applies the same rules ({@link #token}, {@link
 * #principal}) and counts the request against the rate limits in the same store call.
 */
public final class Authenticator {
    private static final String BEARER = "bearer ";

    private final ApiKeys keys;

    public Authenticator(ApiKeys keys) {
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * @param authorization the {@code Authorization} header value, or null when absent
     * @param xApiKey the {@code X-API-Key} header value, or null when absent
     */
    public Principal authenticate(String authorization, String xApiKey) {
        ApiKeyToken token = token(authorization, xApiKey);
        return principal(token, keys.findCredential(token.prefix()));
    }

    /**
     * The key a request presents, before any store is read: {@code Authorization: Bearer <key>} wins
     * over {@code X-API-Key}.
     *
     * @throws CadastroException {@code SEM_CHAVE} when neither header carries a key, {@code
     *     CHAVE_INVALIDA} when the value cannot be one of our keys
     */
    public static ApiKeyToken token(String authorization, String xApiKey) {
        String sent = presented(authorization, xApiKey);
        return ApiKeyToken.parse(sent).orElseThrow(() -> invalid(Message.KEY_MALFORMED.with()));
    }

    /**
     * The caller a token names, given what the store holds under its prefix: the secret is compared
     * in constant time, then revocation, then the account's API switch.
     *
     * @param stored the credential stored under {@code token.prefix()}, empty when there is none
     * @throws CadastroException {@code CHAVE_INVALIDA}, {@code CHAVE_REVOGADA} or {@code API_DESATIVADA}
     */
    public static Principal principal(ApiKeyToken token, Optional<Credential> stored) {
        return principal(token, token.hash(), stored);
    }

    /**
     * As {@link #principal(ApiKeyToken, Optional)}, with the token's {@link ApiKeyToken#hash()}
     * already computed by the caller (it also sent it to the store).
     */
    public static Principal principal(ApiKeyToken token, byte[] presentedHash, Optional<Credential> stored) {
        Credential credential = stored.filter(c -> c.key().prefix().equals(token.prefix()))
                .filter(c -> MessageDigest.isEqual(presentedHash, c.secretHash()))
                .orElseThrow(() -> invalid(Message.KEY_INVALID.with(token.prefix())));
        ApiKey key = credential.key();
        if (key.revoked()) {
            throw new CadastroException(
                    ErrorCode.CHAVE_REVOGADA,
                    Message.KEY_REVOKED.with(
                            key.prefix(), SaoPauloTime.format(key.revokedAt().orElseThrow())));
        }
        Account account = credential.account();
        if (!account.apiEnabled()) {
            throw new CadastroException(ErrorCode.API_DESATIVADA, Message.API_DISABLED.with(account.id()));
        }
        return new Principal(key, account);
    }

    private static String presented(String authorization, String xApiKey) {
        Optional<String> auth = nonBlank(authorization);
        if (auth.isPresent()) {
            String value = auth.get();
            if (value.length() > BEARER.length()
                    && value.substring(0, BEARER.length())
                            .toLowerCase(Locale.ROOT)
                            .equals(BEARER)) {
                return withoutControlCharacters(value.substring(BEARER.length()));
            }
            if (nonBlank(xApiKey).isEmpty()) {
                throw invalid(Message.AUTHORIZATION_NOT_BEARER.with());
            }
        }
        return nonBlank(xApiKey)
                .map(Authenticator::withoutControlCharacters)
                .orElseThrow(() -> new CadastroException(ErrorCode.SEM_CHAVE, Message.NO_KEY.with()));
    }

    /**
     * The value without the spaces and tabs HTTP allows around it (RFC 9110, section 5.5). Any other
     * control character makes the key invalid: {@link String#strip()} would drop {@code U+001F} and
     * its kin, and a host that trims them would accept {@code <key>\u001F} as the key itself.
     */
    private static String withoutControlCharacters(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw invalid(Message.KEY_CONTROL_CHARACTER.with(String.format("%04X", (int) c)));
            }
        }
        return value.substring(start, end);
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    private static CadastroException invalid(LocalizedText message) {
        return new CadastroException(ErrorCode.CHAVE_INVALIDA, message);
    }
}
