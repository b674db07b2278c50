package dev.cadastro.core.work;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: a queue of work items in the store. A claim takes one item that no live lease holds, without
 * waiting on items other workers hold, and is the only way to get one; a lease that is not renewed
 * runs out and the item can be claimed again (its work must tolerate running twice).
 */
public interface WorkQueue<T> {

    /** Claims the oldest available item for {@code owner}, when there is one. */
    Optional<Claimed<T>> claim(String owner, Instant now, Duration lease);

    /** Extends the lease; false when {@code owner} no longer holds the item (it ran out and was taken, or ended). */
    boolean renew(long id, String owner, Instant now, Duration lease);

    /** Ends {@code owner}'s lease now without finishing the item, so another worker takes it at once. */
    void handBack(long id, String owner);
}
