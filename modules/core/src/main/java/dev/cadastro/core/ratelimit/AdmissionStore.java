package dev.cadastro.core.ratelimit;

import dev.cadastro.core.account.Credential;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Port: reads the credential stored under a key prefix and, in the same atomic step, counts one
 * request of that key against its per-minute limit and its account's daily plan limit. The count
 * happens only when the stored secret hash equals the one presented, the key is not revoked and the
 * account's API is enabled: a request that fails authentication is never counted. Implementations
 * count exactly across every server instance that shares them (the store: one statement, one round
 * trip, ADR 0015).
 */
public interface AdmissionStore {

    /**
     * @param prefix the public part of the presented key
     * @param secretHash SHA-256 of the presented key
     * @param window the windows to count in
     * @return empty when no key has this prefix; otherwise its credential and, when the windows were
     *     tried, what they answered
     */
    Optional<Found> admit(String prefix, byte[] secretHash, Window window);

    /**
     * The windows of one request.
     *
     * @param epochMinute the key's minute window: seconds since the epoch divided by 60
     * @param perMinute the most requests a key may make in one minute
     * @param day the account's daily window: the calendar day in America/Sao_Paulo; its limit is the
     *     daily limit of the account's plan as stored
     */
    record Window(long epochMinute, long perMinute, LocalDate day) {
        public Window {
            Objects.requireNonNull(day, "day");
            if (perMinute < 1) {
                throw new IllegalArgumentException("requests per minute " + perMinute + " must be at least 1");
            }
        }
    }

    /**
     * What the store holds under the prefix, and what the request did to the counters.
     *
     * @param credential the key, its secret hash and its account, as read in the step that counted
     * @param counted present when the windows were tried (right secret, key active, API enabled),
     *     whether or not a limit refused the request; empty when it failed authentication
     */
    record Found(Credential credential, Optional<Counts> counted) {
        public Found {
            Objects.requireNonNull(credential, "credential");
            Objects.requireNonNull(counted, "counted");
        }
    }

    /**
     * @param minute the key's requests in this minute, this one included; empty when the minute limit
     *     refused it, or when the day was already at its limit (then neither window counted it)
     * @param day the account's requests today, this one included; empty when the daily limit refused
     *     it, or when the minute did
     * @param dayBefore the account's requests today before this one
     * @param minuteBefore the key's requests in this minute before this one
     */
    record Counts(OptionalLong minute, OptionalLong day, long dayBefore, long minuteBefore) {
        public Counts {
            Objects.requireNonNull(minute, "minute");
            Objects.requireNonNull(day, "day");
            if (minute.isEmpty() && day.isPresent()) {
                throw new IllegalArgumentException("a request the minute refused is not counted in the day");
            }
        }
    }
}
