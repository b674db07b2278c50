package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Servers that follow a register published to a file store (a shared folder here, the port an object
 * store implements): unready until the first generation is open, two servers on one database and one
 * store answering alike, and a generation published while a load of lookups and pages runs, swapped
 * in with no request failing.
 */
class PublishedRegisterEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path dir;
    private static Path build;
    private static Path secondDump;

    @BeforeAll
    static void loadAndPublish() throws Exception {
        dir = Files.createTempDirectory(Path.of("target"), "published-");
        build = dir.resolve("build");
        Path dump = dir.resolve("dump");
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(3_000).seed(5).threads(2).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, build, DumpLoader.buildOptionsFor(load, 3_000));
        secondDump = dir.resolve("dump2");
        DumpGenerator.generate(
                secondDump, GeneratorOptions.builder(3_500).seed(6).threads(2).build());
    }

    private static FollowOptions following() {
        return FollowOptions.defaults()
                .withPoll(Duration.ofMillis(100))
                .withRetry(Duration.ofMillis(100))
                .withParallelism(4);
    }

    private static CadastroServer start(Path cache, Database database, FileStore store) {
        return CadastroServer.start(EngineConfig.builder(cache, database)
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(10_000_000))
                .clock(Clock.systemUTC())
                .files(cache.resolveSibling(cache.getFileName() + "-files"))
                .mailing(MailingOptions.defaults())
                .following(store, "register/", following())
                .build());
    }

    private static Database embedded(String name) {
        return Database.builder()
                .embedded(dir.resolve(name))
                .durableCommits(false)
                .build();
    }

    private static HttpResponse<String> get(CadastroServer s, String path, String key) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                    .timeout(Duration.ofSeconds(30));
            if (key != null) {
                b.header("Authorization", "Bearer " + key);
            }
            return CLIENT.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String key(CadastroServer s) {
        Account a = s.store().accounts().create("published " + System.nanoTime(), new Plan("e2e", 100_000_000));
        s.store()
                .ledger()
                .topUp(
                        a.id(),
                        CreditKind.CREDITS,
                        1_000_000_000L,
                        IdempotencyKey.of("e2e:" + System.nanoTime()),
                        "e2e");
        return new ApiKeyIssuer(s.store().accounts(), s.store().apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(a.id(), "e2e", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
    }

    private static List<String> cnpjs(LuceneRegister r, String uf) {
        List<String> out = new ArrayList<>();
        for (Empresa e : r.search(SearchParameters.parse(Map.of("ufs", List.of(uf), "limite", List.of("40"))))
                .dados()) {
            out.add(e.cnpj());
        }
        return out;
    }

    /** The register data of an answer, without what differs per call (credits, request ids). */
    private static JsonNode data(HttpResponse<String> r) throws IOException {
        JsonNode n = JSON.readTree(r.body());
        return n.has("dados") ? n.get("dados") : n;
    }

    @Test
    void twoServersFollowingOneStoreAreUnreadyUntilTheirFirstGenerationThenAnswerAlike() throws Exception {
        LocalFolderFileStore folder = new LocalFolderFileStore(dir.resolve("bucket-two"));
        IndexPublisher.publish(build, folder, "register/", PublishOptions.defaults());
        Gated gated = new Gated(folder);
        try (CadastroServer a = start(dir.resolve("cache-a"), embedded("db-two"), gated)) {
            // The generation's bytes are held back: the server listens, unready, and refuses nothing else.
            HttpResponse<String> ready = get(a, "/health/ready", null);
            assertEquals(503, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains(CadastroEngine.NOT_READY_INDEX), ready.body());
            assertEquals(200, get(a, "/health/live", null).statusCode());
            String key = key(a);
            HttpResponse<String> early = get(a, "/v1/empresas?ufs=SP", key);
            assertEquals(503, early.statusCode(), early.body());
            assertTrue(early.body().contains("SERVICO_INDISPONIVEL"), early.body());

            gated.open.countDown();
            Await.until(
                    "server A ready", () -> get(a, "/health/ready", null).statusCode() == 200, Duration.ofSeconds(60));
            String url = a.store().embedded().orElseThrow().jdbcUrl();
            try (CadastroServer b =
                    start(dir.resolve("cache-b"), Database.builder().url(url).build(), folder)) {
                Await.until(
                        "server B ready",
                        () -> get(b, "/health/ready", null).statusCode() == 200,
                        Duration.ofSeconds(60));
                assertEquals(
                        a.register().published().checksum(),
                        b.register().published().checksum());
                List<String> sample = cnpjs(a.register(), "SP");
                assertTrue(sample.size() >= 10, sample.toString());
                for (String cnpj : sample) {
                    HttpResponse<String> ra = get(a, "/v1/empresas/" + cnpj, key);
                    HttpResponse<String> rb = get(b, "/v1/empresas/" + cnpj, key);
                    assertEquals(200, ra.statusCode(), ra.body());
                    assertEquals(200, rb.statusCode(), rb.body());
                    assertEquals(data(ra), data(rb));
                }
                for (String q :
                        List.of("ufs=SP&limite=50", "ufs=RJ&ufs=MG&pagina=2&limite=20", "situacao_cadastral=02")) {
                    HttpResponse<String> ra = get(a, "/v1/empresas?" + q, key);
                    HttpResponse<String> rb = get(b, "/v1/empresas?" + q, key);
                    assertEquals(200, ra.statusCode(), ra.body());
                    assertEquals(data(ra), data(rb), q);
                }
            }
        }
    }

    @Test
    void aGenerationPublishedUnderLoadIsSwappedInWithNoRequestFailing() throws Exception {
        Path root = dir.resolve("build-swap");
        LoadOptions first = LoadOptions.builder(dir.resolve("dump")).build();
        DumpLoader.load(first, root, DumpLoader.buildOptionsFor(first, 3_000));
        LocalFolderFileStore folder = new LocalFolderFileStore(dir.resolve("bucket-swap"));
        IndexPublisher.publish(root, folder, "register/", PublishOptions.defaults());
        try (CadastroServer s = start(dir.resolve("cache-swap"), embedded("db-swap"), folder)) {
            Await.until("ready", () -> get(s, "/health/ready", null).statusCode() == 200, Duration.ofSeconds(60));
            String key = key(s);
            List<String> old = cnpjs(s.register(), "SP");
            long before = s.register().published().checksum();

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong ok = new AtomicLong();
            AtomicLong afterSwap = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> load = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int id = t;
                load.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String path = (i + id) % 2 == 0
                                ? "/v1/empresas/" + old.get((i + id) % old.size())
                                : "/v1/empresas?ufs=SP&limite=50&pagina=" + (1 + i % 3);
                        try {
                            HttpResponse<String> r = get(s, path, key);
                            // A CNPJ of the old generation only is absent from the new one: 404 is its answer.
                            boolean fine = r.statusCode() == 200
                                    || (r.statusCode() == 404 && path.startsWith("/v1/empresas/"));
                            if (!fine) {
                                failures.add(path + " -> " + r.statusCode() + " " + r.body());
                            } else {
                                ok.incrementAndGet();
                                if (s.register().published().checksum() != before) {
                                    afterSwap.incrementAndGet();
                                }
                            }
                        } catch (RuntimeException e) {
                            failures.add(path + " -> " + e);
                        }
                    }
                }));
            }
            Await.until("requests before the publication", () -> ok.get() > 200, Duration.ofSeconds(60));
            LoadOptions second = LoadOptions.builder(secondDump).build();
            DumpLoader.load(second, root, DumpLoader.buildOptionsFor(second, 3_500));
            IndexPublisher.publish(root, folder, "register/", PublishOptions.defaults());
            Await.until(
                    "the new generation swapped in",
                    () -> s.register().published().checksum() != before,
                    Duration.ofSeconds(60));
            Await.until("requests after the swap", () -> afterSwap.get() > 200, Duration.ofSeconds(60));
            stop.set(true);
            for (Thread t : load) {
                t.join();
            }
            assertEquals(List.of(), List.copyOf(failures));
            assertEquals(2, s.register().published().generation());
            assertTrue(
                    s.register().published().documents() > 3_000,
                    s.register().published().toString());
            // The new generation's data answers over HTTP; the old generation left the cache.
            String fresh = cnpjs(s.register(), "SP").get(0);
            HttpResponse<String> r = get(s, "/v1/empresas/" + fresh, key);
            assertEquals(200, r.statusCode(), r.body());
            Await.until(
                    "the old generation deleted from the cache",
                    () -> !Files.exists(dir.resolve("cache-swap/gen-1")),
                    Duration.ofSeconds(30));
            assertEquals(Set.of("CURRENT", "gen-2"), names(dir.resolve("cache-swap")));
        }
    }

    private static Set<String> names(Path p) throws IOException {
        try (var s = Files.list(p)) {
            return Set.copyOf(s.map(x -> x.getFileName().toString()).toList());
        }
    }

    /** The store, with the generation's files held back until {@link #open} is counted down. */
    private static final class Gated implements FileStore {
        final FileStore inner;
        final CountDownLatch open = new CountDownLatch(1);

        Gated(FileStore inner) {
            this.inner = inner;
        }

        @Override
        public Upload create(String key) throws IOException {
            return inner.create(key);
        }

        @Override
        public Optional<Download> open(String key) throws IOException {
            return inner.open(key);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return inner.delete(key);
        }

        @Override
        public List<Entry> list(String prefix) throws IOException {
            return inner.list(prefix);
        }

        @Override
        public Optional<Download> open(String key, long offset, long length) throws IOException {
            try {
                if (!open.await(2, TimeUnit.MINUTES)) {
                    throw new IOException("gate never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
            return inner.open(key, offset, length);
        }
    }
}
