package dev.cadastro.core.calls.push;

import dev.cadastro.core.work.Claimed;
import dev.cadastro.core.work.WorkQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: the push outbox. The call store writes its rows in the transaction of the call's change; this
 * port claims them, records each attempt's outcome, and lets the operator list and replay them.
 *
 * <p>A claim takes only {@code pendente} rows whose next attempt is due, whose destination is enabled,
 * and whose integration has fewer than {@code perIntegration} deliveries in flight (under a live lease,
 * on any server): a slow or dead receiver holds at most that many workers, never the others'
 * deliveries. No lock is held after the claim returns; the lease (the row is not due again before it
 * ends) keeps other servers off it, and a row whose server died becomes due again when it runs out, to
 * be sent again with the same {@code webhook-id}: at least once.
 *
 * <p>Each recording method applies only while {@code owner} holds the lease and the row is pending;
 * false otherwise (the lease ran out and another server took the row).
 */
public interface DeliveryQueue extends WorkQueue<Delivery> {

    /** Claims up to {@code max} due deliveries at once, oldest due first, within the per-integration cap. */
    List<Claimed<Delivery>> claimMany(String owner, Instant now, Duration lease, int max, int perIntegration);

    /** A 2xx: the attempt is counted and the delivery is {@code entregue}. */
    boolean delivered(long id, String owner, Instant now, int status);

    /** A failed attempt with retries left: counted, and due again at {@code next}. */
    boolean retryAt(long id, String owner, Instant next, Optional<Integer> status, String error);

    /** The last attempt failed: counted, and the delivery is {@code falhou}. */
    boolean failed(long id, String owner, Instant now, Optional<Integer> status, String error);

    /** Takes one {@code falhou} delivery back to pending with a fresh set of attempts; false when it was not {@code falhou}. */
    boolean replay(long id, Instant now);

    /** Replays every {@code falhou} delivery of an integration; how many. */
    int replayFailed(long integrationId, Instant now);

    /** The integration's deliveries, newest first, of one state or of all. */
    List<DeliveryStatus> list(long integrationId, Optional<DeliveryState> state, int limit);

    /** One delivery, whatever its state. */
    Optional<DeliveryStatus> find(long id);
}
