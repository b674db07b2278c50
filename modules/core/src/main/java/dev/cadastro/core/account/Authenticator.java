package dev.cadastro.core.account;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.time.SaoPauloTime;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: turns the key a caller presents into a {@link Principal}, or throws the contract's 401/403
 * codes: {@code CHAVE_INVALIDA} (not one of our keys, unknown, or wrong secret), {@code CHAVE_REVOGADA}
 * (revoked) and {@code API_DESATIVADA} (the account's API is disabled).
 *
 * <p>Where the key came from (a request's {@code Authorization} or {@code X-API-Key} field, a command
 * line) is the transport's business: it hands over the key ({@link ApiKeyToken#presented}), and says
 * {@code SEM_CHAVE} itself when there is none. Each call reads the store, so a revocation is effective
 * on the next request. Request handlers use {@link dev.cadastro.core.ratelimit.Admission}, which
 * applies the same rules ({@link #principal}) and counts the request against the rate limits in the
 * same store call.
 */
public final class Authenticator {
    private final ApiKeys keys;

    public Authenticator(ApiKeys keys) {
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The caller {@code key} names. */
    public Principal authenticate(ApiKeyToken key) {
        return principal(key, keys.findCredential(key.prefix()));
    }

    /**
     * As {@link #authenticate(ApiKeyToken)}, for the key as its holder wrote it.
     *
     * @throws CadastroException {@code CHAVE_INVALIDA} also when the text cannot be one of our keys
     */
    public Principal authenticate(String key) {
        return authenticate(ApiKeyToken.presented(key));
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

    private static CadastroException invalid(LocalizedText message) {
        return new CadastroException(ErrorCode.CHAVE_INVALIDA, message);
    }
}
