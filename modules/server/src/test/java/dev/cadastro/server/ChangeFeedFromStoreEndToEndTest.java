package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.generate.DumpEvolver;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.server.cli.Cli;
import dev.cadastro.server.cli.CliRuns;
import dev.cadastro.server.cli.CliRuns.Run;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The month's changes when the builder starts from an empty folder (issue 45): {@code load --publish
 * s3://...} over an index that holds no generation fetches the store's current one, verified, and
 * compares the new month with it. Month 1 is built and published by one builder; month 2 by another, with
 * an empty folder, to the same bucket (s3proxy); a server following the bucket serves the same changes as
 * a server over month 2 built on month 1 in one folder. A corrupted object of the published generation
 * fails the load, naming the generation and the object, unless the operator allows a month without
 * changes.
 */
class ChangeFeedFromStoreEndToEndTest {
    private static final int ESTABLISHMENTS = 6_000;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static Path dir;
    private static S3ProxyFixture s3;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory(Path.of("target"), "feed-store-");
        GeneratorOptions options =
                GeneratorOptions.builder(ESTABLISHMENTS).seed(54).threads(2).build();
        DumpGenerator.generate(dir.resolve("m1"), options);
        DumpEvolver.evolve(dir.resolve("m1"), dir.resolve("m2"), YearMonth.of(2026, 9), options);
        // Credentials from the SDK's default chain: here its system properties, the fixture's test keys.
        System.setProperty("aws.accessKeyId", S3ProxyFixture.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", S3ProxyFixture.SECRET_KEY);
        s3 = S3ProxyFixture.start(dir.resolve("s3"));
        s3.createBucket("register");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (s3 != null) {
                s3.close();
            }
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }

    private static Run load(String month, String index, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "load",
                "--dump",
                dir.resolve(month).toString(),
                "--index",
                dir.resolve(index).toString(),
                "--rejects",
                dir.resolve(index + "-" + month + "-rejects.tsv").toString(),
                "--threads",
                "1"));
        args.addAll(List.of(more));
        return CliRuns.inProcess(args);
    }

    private static String[] publishTo(String prefix) {
        return new String[] {
            "--publish",
            "s3://register/" + prefix,
            "--s3-endpoint",
            s3.endpoint().toString()
        };
    }

    @Test
    void aBuilderWithAnEmptyFolderComparesTheNewMonthWithTheGenerationInTheStore() throws Exception {
        Run first = load("m1", "builder-a", publishTo("feed"));
        assertEquals(Cli.DONE, first.status(), first.err());
        assertTrue(first.out().contains("previous generation: none in "), first.out());

        Run second = load("m2", "builder-b", publishTo("feed"));
        assertEquals(Cli.DONE, second.status(), second.err());
        assertTrue(
                second.out().contains("previous generation: generation 1 fetched from s3://register/feed into "),
                second.out());
        assertTrue(second.out().contains("changes against the previous generation"), second.out());
        assertTrue(second.out().contains("published to s3://register/feed: generation 2, "), second.out());

        // The reference: month 2 built over month 1 in the same folder, as a builder that keeps its folder.
        Run local = load("m2", "builder-a");
        assertEquals(Cli.DONE, local.status(), local.err());
        assertTrue(local.out().contains("previous generation: gen-1 of "), local.out());

        Answers fromStore;
        S3Location location = S3Location.parse("--index", "s3://register/feed");
        try (S3FileStore store = S3FileStore.open(s3.connection(), location);
                CadastroServer server = CadastroServer.start(config(dir.resolve("cache"))
                        .following(store, "", FollowOptions.defaults().withPoll(Duration.ZERO))
                        .build())) {
            assertEquals(
                    2,
                    IndexFollower.of(server.register())
                            .orElseThrow()
                            .poll()
                            .orElseThrow()
                            .generation());
            fromStore = answers(server);
        }
        Answers fromFolder;
        try (CadastroServer server =
                CadastroServer.start(config(dir.resolve("builder-a")).build())) {
            fromFolder = answers(server);
        }
        assertTrue(fromFolder.items().size() > 100, "month 2 changes enough to compare: " + fromFolder.counts());
        assertTrue(fromFolder.counts().get("abertura") > 0, fromFolder.counts().toString());
        assertTrue(fromFolder.counts().get("contato") > 0, fromFolder.counts().toString());
        assertEquals(fromFolder.counts(), fromStore.counts(), "counts per type");
        assertEquals(fromFolder.items().size(), fromStore.items().size());
        for (int i = 0; i < fromFolder.items().size(); i += 7) {
            assertEquals(fromFolder.items().get(i), fromStore.items().get(i), "item " + i);
        }
        assertEquals(fromFolder.items(), fromStore.items(), "every item: the record, its types, the previous values");
    }

    @Test
    void aCorruptedObjectOfThePublishedGenerationFailsTheLoadUnlessAMonthWithoutChangesIsAllowed() throws Exception {
        Run first = load("m1", "builder-c", publishTo("corrupt"));
        assertEquals(Cli.DONE, first.status(), first.err());
        Path largest = corruptLargestObject("corrupt/gen-1");
        String object = "gen-1/"
                + dir.resolve("s3/register/corrupt/gen-1")
                        .relativize(largest)
                        .toString()
                        .replace('\\', '/');

        Run refused = load("m2", "builder-d", publishTo("corrupt"));
        assertEquals(Cli.FAILURE, refused.status(), refused.out() + refused.err());
        assertTrue(refused.err().contains("generation 1 published at s3://register/corrupt"), refused.err());
        assertTrue(refused.err().contains(object), object + " named in: " + refused.err());
        assertTrue(refused.err().contains("CRC32C"), refused.err());
        assertTrue(refused.err().contains("nothing was loaded or published"), refused.err());
        assertFalse(refused.out().contains("published to"), refused.out());
        assertTrue(LuceneRegister.currentGeneration(dir.resolve("builder-d")).isEmpty());
        assertEquals("generation=1", pointer("corrupt"));
        assertEquals(List.of("download-1"), downloads("builder-d"), "the verified parts are kept for a retry");

        Run allowed = load("m2", "builder-d", ArraysPlus.with(publishTo("corrupt"), "--allow-no-changes"));
        assertEquals(Cli.DONE, allowed.status(), allowed.err());
        assertTrue(allowed.err().contains("--allow-no-changes"), allowed.err());
        assertTrue(
                allowed.out().contains("previous generation: none (generation 1 at s3://register/corrupt"),
                allowed.out());
        assertFalse(allowed.out().contains("changes against the previous generation"), allowed.out());
        assertTrue(allowed.out().contains("published to s3://register/corrupt: generation 2, "), allowed.out());
        assertEquals("generation=2", pointer("corrupt"));
        assertEquals(List.of(), downloads("builder-d"), "a month without changes wants no partial download");
    }

    @Test
    void aBuilderWhoseFolderIsBehindTheStoreComparesWithTheStoresNewerGeneration() throws Exception {
        Run first = load("m1", "builder-e", publishTo("behind"));
        assertEquals(Cli.DONE, first.status(), first.err());
        // Another builder publishes month 2 meanwhile: the store is now one generation ahead of builder-e.
        Run other = load("m2", "builder-f", publishTo("behind"));
        assertEquals(Cli.DONE, other.status(), other.err());
        assertEquals("generation=2", pointer("behind"));

        // builder-e loads month 2 as well: compared with its own gen-1 it would find the whole month's
        // changes; compared with what the fleet serves (month 2), none.
        Run again = load("m2", "builder-e", publishTo("behind"));
        assertEquals(Cli.DONE, again.status(), again.err());
        assertTrue(
                again.out().contains("previous generation: generation 2 fetched from s3://register/behind into "),
                again.out());
        assertTrue(again.out().contains("changes against the previous generation: 0 "), again.out());
        assertTrue(again.out().contains("published to s3://register/behind: generation 3, "), again.out());
    }

    @Test
    void aBuilderBehindTheStoreWhoseNewerGenerationCannotBeFetchedPublishesNoChangesUnderAllowNoChanges()
            throws Exception {
        Run first = load("m1", "builder-g", publishTo("behind-corrupt"));
        assertEquals(Cli.DONE, first.status(), first.err());
        Run other = load("m2", "builder-h", publishTo("behind-corrupt"));
        assertEquals(Cli.DONE, other.status(), other.err());
        assertEquals("generation=2", pointer("behind-corrupt"));
        // The store's generation 2 cannot be fetched: builder-g's own gen-1 is a month the fleet no longer serves.
        corruptLargestObject("behind-corrupt/gen-2");

        Run allowed = load("m2", "builder-g", ArraysPlus.with(publishTo("behind-corrupt"), "--allow-no-changes"));
        assertEquals(Cli.DONE, allowed.status(), allowed.err());
        assertTrue(
                allowed.out().contains("previous generation: none (generation 2 at s3://register/behind-corrupt"),
                allowed.out());
        // As the line says: no changes this month, not the changes against the stale gen-1 (which the fleet's
        // clients already received as month 2's from generation 2).
        assertFalse(allowed.out().contains("changes against the previous generation"), allowed.out());
        assertFalse(
                Files.exists(LuceneRegister.currentGeneration(dir.resolve("builder-g"))
                        .orElseThrow()
                        .path()
                        .resolve("changes.bin")),
                "the published generation holds changes against gen-1");
    }

    /**
     * Flips a byte in the middle of the largest object under {@code folder} of the bucket (s3proxy's
     * filesystem backend keeps each object as a file) and returns that file.
     */
    private static Path corruptLargestObject(String folder) throws IOException {
        Path largest;
        try (Stream<Path> files = Files.walk(dir.resolve("s3/register/" + folder))) {
            largest = files.filter(Files::isRegularFile)
                    .max((a, b) -> Long.compare(a.toFile().length(), b.toFile().length()))
                    .orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(largest.toFile(), "rw")) {
            long at = raf.length() / 2;
            raf.seek(at);
            int original = raf.read();
            raf.seek(at);
            raf.write(original ^ 0x10);
        }
        return largest;
    }

    /** The download folders left under an index folder. */
    private static List<String> downloads(String index) throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve(index))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("download-"))
                    .sorted()
                    .toList();
        }
    }

    private static String pointer(String prefix) throws Exception {
        try (var client = s3.connection().client()) {
            return client.getObjectAsBytes(r -> r.bucket("register").key(prefix + "/CURRENT"))
                    .asString(StandardCharsets.UTF_8)
                    .lines()
                    .findFirst()
                    .orElse("");
        }
    }

    private static final class ArraysPlus {
        static String[] with(String[] a, String... more) {
            String[] out = java.util.Arrays.copyOf(a, a.length + more.length);
            System.arraycopy(more, 0, out, a.length, more.length);
            return out;
        }
    }

    private static EngineConfig.Builder config(Path index) {
        return EngineConfig.builder(
                        index,
                        Database.builder()
                                .embedded(dir.resolve("db"))
                                .durableCommits(false)
                                .build())
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(100_000))
                .clock(new ManualClock(ServerFixture.START))
                .files(dir.resolve("files"));
    }

    /** The feed's count per type and every item of its pages, as a client reads them. */
    private record Answers(Map<String, Long> counts, List<String> items) {}

    private static Answers answers(CadastroServer server) throws Exception {
        Account account = server.store().accounts().create("feed " + UUID.randomUUID(), new Plan("feed", 1_000_000));
        server.store()
                .ledger()
                .topUp(
                        account.id(),
                        CreditKind.CREDITS,
                        1_000_000,
                        IdempotencyKey.of("feed:" + UUID.randomUUID()),
                        "feed");
        String key = new ApiKeyIssuer(
                        server.store().accounts(),
                        server.store().apiKeys(),
                        new ManualClock(ServerFixture.START),
                        new SecureRandom())
                .issue(account.id(), "feed", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
        Map<String, Long> counts = new TreeMap<>();
        for (ChangeType t : ChangeType.values()) {
            String code = t.wire();
            JsonNode body = feed(server, key, "?apenas_total=true&tipos=" + code);
            counts.put(code, body.path("total").asLong());
        }
        List<String> items = new ArrayList<>();
        for (int page = 1; ; page++) {
            JsonNode body = feed(server, key, "?limite=200&pagina=" + page);
            body.path("dados").forEach(item -> items.add(item.toString()));
            if (body.path("dados").size() < 200) {
                assertEquals(body.path("paginacao").path("total").asLong(), items.size());
                return new Answers(counts, items);
            }
        }
    }

    private static JsonNode feed(CadastroServer server, String key, String query) throws Exception {
        HttpResponse<String> r = CLIENT.send(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.port() + "/v1/empresas/alteracoes" + query))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + key)
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), query + ": " + r.body());
        JsonNode body = json(r);
        assertEquals("2026-09", body.path("referencia").asText(), r.body());
        return body;
    }
}
