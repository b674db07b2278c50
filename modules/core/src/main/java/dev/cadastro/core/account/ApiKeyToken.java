package dev.cadastro.core.account;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The wire form of an API key: {@code cad_<prefix>_<secret>}, where the prefix is 12 random base-32
 * characters (public: it finds the key in the store) and the secret is 256 random bits in unpadded
 * base64url (43 characters). Only the SHA-256 of the whole token is stored; a slow password hash is
 * not needed because the secret has 256 bits of entropy, and the comparison is constant-time.
 *
 * @param prefix the public part
 * @param token the whole key as the client sends it; never logged ({@link #toString()} hides it)
 */
public record ApiKeyToken(String prefix, String token) {
    /** Characters of the prefix. */
    public static final int PREFIX_LENGTH = 12;

    /** Bytes of randomness in the secret. */
    public static final int SECRET_BYTES = 32;

    private static final String START = "cad_";
    private static final String BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
    private static final int SECRET_CHARS = 43;
    private static final int TOKEN_LENGTH = START.length() + PREFIX_LENGTH + 1 + SECRET_CHARS;

    public ApiKeyToken {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(token, "token");
    }

    /** Draws a new key. */
    public static ApiKeyToken generate(RandomGenerator random) {
        StringBuilder prefix = new StringBuilder(PREFIX_LENGTH);
        for (int i = 0; i < PREFIX_LENGTH; i++) {
            prefix.append(BASE32.charAt(random.nextInt(BASE32.length())));
        }
        byte[] secret = new byte[SECRET_BYTES];
        random.nextBytes(secret);
        String p = prefix.toString();
        return new ApiKeyToken(
                p, START + p + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /**
     * The key a caller presented, as its transport extracted it (without the field's name or scheme).
     *
     * @throws CadastroException {@code CHAVE_INVALIDA} when the text cannot be one of our keys
     */
    public static ApiKeyToken presented(String text) {
        return parse(text)
                .orElseThrow(() -> new CadastroException(ErrorCode.CHAVE_INVALIDA, Message.KEY_MALFORMED.with()));
    }

    /** Reads what a client sent; empty when it cannot be one of our keys. Never throws. */
    public static Optional<ApiKeyToken> parse(String text) {
        if (text == null || text.length() != TOKEN_LENGTH || !text.startsWith(START)) {
            return Optional.empty();
        }
        String prefix = text.substring(START.length(), START.length() + PREFIX_LENGTH);
        if (!isValidPrefix(prefix) || text.charAt(START.length() + PREFIX_LENGTH) != '_') {
            return Optional.empty();
        }
        String secret = text.substring(TOKEN_LENGTH - SECRET_CHARS);
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            boolean ok =
                    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return Optional.empty();
            }
        }
        return Optional.of(new ApiKeyToken(prefix, text));
    }

    /** Whether the text has the shape of a prefix: {@value #PREFIX_LENGTH} base-32 characters. */
    public static boolean isValidPrefix(String text) {
        if (text == null || text.length() != PREFIX_LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (BASE32.indexOf(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The hash the store keeps: SHA-256 of the whole token. */
    public byte[] hash() {
        return Texts.sha256(token.getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether this token hashes to the stored hash, compared in constant time. */
    public boolean matches(byte[] storedHash) {
        return MessageDigest.isEqual(hash(), storedHash);
    }

    @Override
    public String toString() {
        return "ApiKeyToken[" + START + prefix + "_***]";
    }
}
