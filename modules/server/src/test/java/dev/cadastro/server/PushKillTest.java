package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.server.cli.CliRuns;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At least once across a crash: a real {@code ./cadastro serve} process sends a delivery and is killed
 * with SIGKILL ({@code destroyForcibly}) before the receiver answers, so before it could record
 * anything; once its lease has run out another server sends the delivery again with the same {@code
 * webhook-id}, and it is delivered.
 */
class PushKillTest {
    @TempDir
    Path tmp;

    @Test
    void aServerKilledBetweenSendAndRecordLeadsToARedeliveryWithTheSameWebhookId() throws Exception {
        Path dump = tmp.resolve("dump");
        Path index = tmp.resolve("index");
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(200).seed(3).threads(1).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, 200));

        PushFixture db = PushFixture.fresh();
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        try (Store store = db.open(Clock.systemUTC());
                LoopbackReceiver receiver = new LoopbackReceiver(r -> {
                    firstArrived.countDown();
                    try {
                        never.await(); // the first request is never answered: the server dies meanwhile
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return LoopbackReceiver.Reply.status(500);
                })) {
            Integration crm = db.integration("crm");
            store.pushDestinations()
                    .set(
                            new PushDestination(crm, receiver.url("/h"), "X-Api-Key", "k-1", true, null, true),
                            Instant.now());
            long id = db.readyCall(PushFixture.call(crm, "K-1", Instant.now()), Instant.now());

            Process child = startServe(index, db.url);
            try {
                assertTrue(firstArrived.await(90, TimeUnit.SECONDS), () -> "the child never sent: " + log());
                String owner = (String) db.delivery(id, "lease_owner");
                assertNotNull(owner, "claimed by the child");
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            } finally {
                child.destroyForcibly();
            }
            assertEquals("pendente", db.delivery(id, "state"), "killed before recording");
            assertEquals(1, db.delivery(id, "attempts"), "counted when the child claimed it");
            String webhookId = receiver.received().getFirst().header("webhook-id");

            // Another server whose clock is past the dead one's 60-second lease, as if it waited it out.
            receiver.behave(r -> LoopbackReceiver.Reply.status(200));
            Clock later = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(61));
            PushDelivery push = new PushDelivery(
                    store.deliveryQueue(),
                    new JdkWebhookSender(Duration.ofSeconds(2), later),
                    DestinationPolicy.builder()
                            .allowHttp(true)
                            .allowLoopback(true)
                            .resolver(JdkWebhookSender.RESOLVER)
                            .build(),
                    RetrySchedule.standard(new SplittableRandom(1)),
                    call -> CallJson.wrapped(call, "https://gravacoes.example/" + call.id()),
                    later,
                    PushDelivery.DEFAULT_TIMEOUT);
            try (WorkerPool<Delivery> survivor =
                    PushWorkers.start(store.deliveryQueue(), push, "survivor", later, PushWorkers.Options.defaults())) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!"entregue".equals(db.delivery(id, "state")) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            assertEquals("entregue", db.delivery(id, "state"));
            assertEquals(2, db.delivery(id, "attempts"), "the crashed attempt counts: a crash costs one of the seven");
            assertEquals(2, receiver.received().size());
            assertEquals(webhookId, receiver.received().get(1).header("webhook-id"));
            never.countDown();
        }
    }

    private Process startServe(Path index, String url) throws IOException {
        return CliRuns.startServe(
                "256m",
                index,
                url,
                tmp.resolve("serve.log"),
                List.of(
                        "--files",
                        tmp.resolve("files").toString(),
                        "--sms-dir",
                        tmp.resolve("sms").toString(),
                        "--push-allow-http",
                        "--push-allow-private"));
    }

    private String log() {
        return CliRuns.logOf(tmp.resolve("serve.log"));
    }
}
