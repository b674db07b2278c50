package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.PushWorkers;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.work.WorkerPool;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Store;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The push workers on the system clock: fairness between integrations, and two servers on one database. */
class PushWorkersTest {
    private static final DestinationPolicy LOOPBACK = DestinationPolicy.builder()
            .allowHttp(true)
            .allowLoopback(true)
            .resolver(JdkWebhookSender.RESOLVER)
            .build();

    private static WorkerPool<Delivery> workers(Store store, String owner, PushWorkers.Options options) {
        PushDelivery push = new PushDelivery(
                store.deliveryQueue(),
                new JdkWebhookSender(Duration.ofSeconds(2), Clock.systemUTC()),
                LOOPBACK,
                RetrySchedule.standard(new SplittableRandom()),
                call -> CallJson.wrapped(call, "https://gravacoes.example/" + call.id()),
                Clock.systemUTC(),
                PushDelivery.DEFAULT_TIMEOUT);
        return PushWorkers.start(store.deliveryQueue(), push, owner, Clock.systemUTC(), options);
    }

    private static void destination(Store store, Integration integration, LoopbackReceiver receiver) {
        store.pushDestinations()
                .set(
                        new PushDestination(
                                integration,
                                receiver.url("/" + integration.name()),
                                "X-Api-Key",
                                "k",
                                false,
                                null,
                                true),
                        Instant.now());
    }

    private static void await(String what, java.util.function.BooleanSupplier done, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within + ": " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aReceiverThatSleepsTenSecondsDoesNotDelayAnotherIntegrationsDeliveries() throws Exception {
        PushFixture db = PushFixture.fresh();
        AtomicInteger slowInFlight = new AtomicInteger();
        AtomicInteger slowMaxInFlight = new AtomicInteger();
        try (Store store = db.open(Clock.systemUTC());
                LoopbackReceiver slow = new LoopbackReceiver(r -> {
                    slowMaxInFlight.accumulateAndGet(slowInFlight.incrementAndGet(), Math::max);
                    return new LoopbackReceiver.Reply(200, Map.of(), 10_000);
                });
                LoopbackReceiver fast = LoopbackReceiver.ok()) {
            Integration a = db.integration("slow-a");
            Integration b = db.integration("fast-b");
            destination(store, a, slow);
            destination(store, b, fast);
            Instant now = Instant.now();
            // A's deliveries are older: first in the queue's order.
            for (int i = 0; i < 60; i++) {
                db.readyCall(PushFixture.call(a, "A-" + i, now), now.minusSeconds(60));
            }
            for (int i = 0; i < 40; i++) {
                db.readyCall(PushFixture.call(b, "B-" + i, now), now);
            }
            PushWorkers.Options options =
                    PushWorkers.Options.defaults().withConcurrency(16, 4).withPoll(Duration.ofMillis(50));
            try (WorkerPool<Delivery> w = workers(store, "server-1", options)) {
                await(
                        "B's 40 deliveries",
                        () -> db.count("integration_id = " + b.id() + " AND state = 'entregue'") == 40,
                        Duration.ofSeconds(8));
                // Every one of B's deliveries landed while A's requests were still unanswered: none of A's
                // is delivered and A's receiver still holds the ones it took, so B never waited behind them.
                assertEquals(
                        0,
                        db.count("integration_id = " + a.id() + " AND state = 'entregue'"),
                        "A's receiver is still asleep");
                assertEquals(40, fast.received().size());
                assertTrue(slowMaxInFlight.get() <= 4, "A held " + slowMaxInFlight.get() + " workers, cap 4");
                assertTrue(
                        slow.received().size() >= 1 && slow.received().size() <= 4,
                        "A in flight: " + slow.received().size());
            }
        }
    }

    @Test
    void aReceiverThatTricklesItsBodyStaysWithinItsCapAndItsAttemptsAreRecorded() throws Exception {
        PushFixture db = PushFixture.fresh();
        AtomicInteger open = new AtomicInteger();
        AtomicInteger maxOpen = new AtomicInteger();
        Duration timeout = Duration.ofMillis(500);
        try (Store store = db.open(Clock.systemUTC());
                TricklingReceiver trickle = new TricklingReceiver(open, maxOpen);
                LoopbackReceiver fast = LoopbackReceiver.ok()) {
            Integration a = db.integration("trickle-a");
            Integration b = db.integration("fast-b");
            store.pushDestinations()
                    .set(new PushDestination(a, trickle.url(), "X-Api-Key", "k", false, null, true), Instant.now());
            destination(store, b, fast);
            Instant now = Instant.now();
            for (int i = 0; i < 30; i++) {
                db.readyCall(PushFixture.call(a, "A-" + i, now), now.minusSeconds(60));
            }
            PushDelivery push = new PushDelivery(
                    store.deliveryQueue(),
                    new JdkWebhookSender(timeout, Clock.systemUTC()),
                    LOOPBACK,
                    RetrySchedule.standard(new SplittableRandom()),
                    call -> CallJson.wrapped(call, "https://gravacoes.example/" + call.id()),
                    Clock.systemUTC(),
                    timeout);
            PushWorkers.Options options = PushWorkers.Options.defaults()
                    .withConcurrency(8, 2)
                    .withLease(PushWorkers.minimumLease(timeout))
                    .withPoll(Duration.ofMillis(50));
            try (WorkerPool<Delivery> w =
                    PushWorkers.start(store.deliveryQueue(), push, "server-1", Clock.systemUTC(), options)) {
                await(
                        "A's attempts recorded as 503",
                        () -> db.count("integration_id = " + a.id() + " AND last_status = 503 AND lease_owner IS NULL")
                                >= 4,
                        Duration.ofSeconds(20));
                Instant t = Instant.now();
                for (int i = 0; i < 10; i++) {
                    db.readyCall(PushFixture.call(b, "B-" + i, t), t);
                }
                await(
                        "B's 10 deliveries",
                        () -> db.count("integration_id = " + b.id() + " AND state = 'entregue'") == 10,
                        Duration.ofSeconds(20));
                // Past the lease: an attempt that never ended would now be claimed again beside itself.
                Thread.sleep(options.lease().toMillis() + 1_000);
            }
            assertTrue(maxOpen.get() <= 2, "A's receiver held " + maxOpen.get() + " requests at once, cap 2");
            assertEquals(0, db.count("integration_id = " + a.id() + " AND state = 'entregue'"));
        }
    }

    /**
     * Answers {@code 503} at once and then sends its 100,000-byte body a byte every 100 ms, counting
     * the requests it holds open at once (a request ends when the sender closes its connection).
     */
    private static final class TricklingReceiver implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

        TricklingReceiver(AtomicInteger open, AtomicInteger maxOpen) throws IOException {
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    Socket s;
                    try {
                        s = server.accept();
                    } catch (IOException e) {
                        return;
                    }
                    Thread.ofVirtual().start(() -> hold(s, open, maxOpen));
                }
            });
        }

        private static void hold(Socket s, AtomicInteger open, AtomicInteger maxOpen) {
            try (s) {
                InputStream in = new BufferedInputStream(s.getInputStream());
                String head = "";
                while (!head.endsWith("\r\n\r\n")) {
                    int c = in.read();
                    if (c == -1) {
                        return;
                    }
                    head += (char) c;
                }
                int length = 0;
                for (String line : head.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                in.readNBytes(length);
                maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                try {
                    OutputStream o = s.getOutputStream();
                    o.write("HTTP/1.1 503 Busy\r\nContent-Length: 100000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    o.flush();
                    // The sender closing its end is seen at once by a read, not at the next write.
                    Thread reader = Thread.ofVirtual().start(() -> {
                        try {
                            while (in.read() != -1) {
                                // nothing more is expected from the sender
                            }
                        } catch (IOException e) {
                            // closed
                        }
                    });
                    for (int i = 0; i < 100_000 && reader.isAlive(); i++) {
                        o.write('x');
                        o.flush();
                        reader.join(Duration.ofMillis(100));
                    }
                } finally {
                    open.decrementAndGet();
                }
            } catch (IOException | InterruptedException e) {
                // the sender gave up: what this receiver is for
            }
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/trickle");
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void twoServersOnOneDatabaseNeverDeliverTheSameAttemptTwice() throws Exception {
        PushFixture db = PushFixture.fresh();
        Map<String, AtomicInteger> perWebhookId = new ConcurrentHashMap<>();
        try (Store one = db.open(Clock.systemUTC());
                Store two = db.open(Clock.systemUTC());
                LoopbackReceiver receiver = new LoopbackReceiver(r -> {
                    perWebhookId
                            .computeIfAbsent(r.header("webhook-id"), k -> new AtomicInteger())
                            .incrementAndGet();
                    return LoopbackReceiver.Reply.status(200);
                })) {
            Integration crm = db.integration("crm");
            Integration other = db.integration("outro");
            destination(one, crm, receiver);
            destination(one, other, receiver);
            Instant now = Instant.now();
            int n = 600;
            for (int i = 0; i < n; i++) {
                db.readyCall(PushFixture.call(i % 2 == 0 ? crm : other, "C-" + i, now), now);
            }
            PushWorkers.Options options = PushWorkers.Options.defaults().withPoll(Duration.ofMillis(20));
            try (WorkerPool<Delivery> a = workers(one, "server-a", options);
                    WorkerPool<Delivery> b = workers(two, "server-b", options)) {
                await("all delivered", () -> db.count("state = 'entregue'") == n, Duration.ofSeconds(60));
            }
            assertEquals(n, perWebhookId.size());
            Map<Integer, Long> histogram = perWebhookId.values().stream()
                    .collect(Collectors.groupingBy(AtomicInteger::get, Collectors.counting()));
            assertEquals(Map.of(1, (long) n), histogram, "requests per webhook-id");
            assertEquals(n, db.count("attempts = 1"));
            Map<String, Long> byPath = receiver.received().stream()
                    .collect(Collectors.groupingBy(LoopbackReceiver.Received::path, Collectors.counting()));
            assertEquals(Map.of("/crm", (long) n / 2, "/outro", (long) n / 2), byPath);
        }
    }
}
