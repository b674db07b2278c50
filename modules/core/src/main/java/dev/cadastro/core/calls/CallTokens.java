package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: integrations and their bearer tokens. A token is 256 random bits shown once at creation; only
 * its SHA-256 is stored. Tokens do not expire; {@link #rotate} issues a new one and revokes the old
 * ones in one transaction, so the old token is refused from the moment the new one exists.
 */
public interface CallTokens {

    /** A token just issued: {@code token} is shown to the operator once and never stored. */
    record Issued(Integration integration, long tokenId, String token) {
        @Override
        public String toString() {
            return "Issued[" + integration + ", token " + tokenId + "]";
        }
    }

    /** What the operator sees of a token: never the token itself. */
    record TokenInfo(
            long tokenId, Integration integration, String prefix, Instant createdAt, Optional<Instant> revokedAt) {}

    /** Creates the integration when it does not exist, and a new token for it (earlier tokens stay valid). */
    Issued create(String integrationName);

    /**
     * Issues a new token for an existing integration and revokes all its other tokens, in one transaction.
     *
     * @throws java.util.NoSuchElementException when there is no such integration
     */
    Issued rotate(String integrationName);

    /** Revokes one token; false when there is no such token or it was already revoked. */
    boolean revoke(long tokenId);

    /** Every token, newest first, of one integration or (empty name) of all. */
    List<TokenInfo> list(Optional<String> integrationName);

    /** The integration by name, when it exists. */
    Optional<Integration> integration(String name);

    /** The integration whose valid (not revoked) token this is; empty for anything else. */
    Optional<Integration> authenticate(String token);
}
