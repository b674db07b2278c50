package dev.cadastro.benchmarks.push;

import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DeliveryQueue;
import dev.cadastro.core.calls.push.DeliveryState;
import dev.cadastro.core.calls.push.DeliveryStatus;
import dev.cadastro.core.work.Claimed;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/** The store's delivery queue, counting the claims, the rows they returned and the time they took. */
final class CountingQueue implements DeliveryQueue {
    private final DeliveryQueue queue;
    final LongAdder claims = new LongAdder();
    final LongAdder empty = new LongAdder();
    final LongAdder rows = new LongAdder();
    final LongAdder claimNanos = new LongAdder();
    final LongAdder deliveredNanos = new LongAdder();
    final LongAdder delivered = new LongAdder();

    CountingQueue(DeliveryQueue queue) {
        this.queue = queue;
    }

    String summary() {
        long c = Math.max(1, claims.sum());
        return String.format(
                Locale.ROOT,
                "%,d claims (%,d empty), %.1f rows and %.2f ms each; recording a 2xx waited %.2f ms on average",
                claims.sum(),
                empty.sum(),
                rows.sum() / (double) c,
                claimNanos.sum() / 1e6 / c,
                deliveredNanos.sum() / 1e6 / Math.max(1, delivered.sum()));
    }

    void reset() {
        claims.reset();
        empty.reset();
        rows.reset();
        claimNanos.reset();
        deliveredNanos.reset();
        delivered.reset();
    }

    @Override
    public List<Claimed<Delivery>> claimMany(String owner, Instant now, Duration lease, int max, int perIntegration) {
        long t0 = System.nanoTime();
        List<Claimed<Delivery>> got = queue.claimMany(owner, now, lease, max, perIntegration);
        claimNanos.add(System.nanoTime() - t0);
        claims.increment();
        rows.add(got.size());
        if (got.isEmpty()) {
            empty.increment();
        }
        return got;
    }

    @Override
    public Optional<Claimed<Delivery>> claim(String owner, Instant now, Duration lease) {
        return queue.claim(owner, now, lease);
    }

    @Override
    public boolean renew(long id, String owner, Instant now, Duration lease) {
        return queue.renew(id, owner, now, lease);
    }

    @Override
    public void handBack(long id, String owner) {
        queue.handBack(id, owner);
    }

    @Override
    public boolean delivered(long id, String owner, Instant now, int status) {
        long t0 = System.nanoTime();
        try {
            return queue.delivered(id, owner, now, status);
        } finally {
            deliveredNanos.add(System.nanoTime() - t0);
            delivered.increment();
        }
    }

    @Override
    public boolean retryAt(long id, String owner, Instant next, Optional<Integer> status, String error) {
        return queue.retryAt(id, owner, next, status, error);
    }

    @Override
    public boolean failed(long id, String owner, Instant now, Optional<Integer> status, String error) {
        return queue.failed(id, owner, now, status, error);
    }

    @Override
    public boolean replay(long id, Instant now) {
        return queue.replay(id, now);
    }

    @Override
    public int replayFailed(long integrationId, Instant now) {
        return queue.replayFailed(integrationId, now);
    }

    @Override
    public List<DeliveryStatus> list(long integrationId, Optional<DeliveryState> state, int limit) {
        return queue.list(integrationId, state, limit);
    }

    @Override
    public Optional<DeliveryStatus> find(long id) {
        return queue.find(id);
    }
}
