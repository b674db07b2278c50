package dev.cadastro.core.ratelimit;

import dev.cadastro.core.account.Principal;

/**
 * Port: counts one request of an authenticated key against its per-minute limit and its account's
 * daily plan limit, atomically across every server that shares the implementation's store.
 */
public interface RateLimiter {

    /** The per-minute limit of every key (specification section 8). */
    long REQUESTS_PER_MINUTE = 120;

    /**
     * Counts the request and returns both windows for the response headers.
     *
     * @throws RateLimitExceededException when a limit is reached; the request must not proceed
     */
    RateLimitDecision check(Principal principal);
}
