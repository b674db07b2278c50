package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.store.Database;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The register published to a real S3 protocol server (s3proxy in this JVM, through the SDK): a server
 * follows the bucket, opens the generation, and refuses a newer one whose object was corrupted in the
 * bucket (it keeps serving, ready, on the one it has) until the object is right again.
 */
class PublishedRegisterOnS3EndToEndTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static int status(CadastroServer s, String path) throws Exception {
        return CLIENT.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void aServerFollowsTheBucketAndRefusesAGenerationWhoseObjectWasCorrupted() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "published-s3-");
        Path root = dir.resolve("build");
        for (int seed : new int[] {8, 9}) {
            Path dump = dir.resolve("dump-" + seed);
            DumpGenerator.generate(
                    dump,
                    GeneratorOptions.builder(2_000 + seed).seed(seed).threads(2).build());
        }
        LoadOptions first = LoadOptions.builder(dir.resolve("dump-8")).build();
        DumpLoader.load(first, root, DumpLoader.buildOptionsFor(first, 2_008));
        try (S3ProxyFixture s3 = S3ProxyFixture.start(dir.resolve("s3"))) {
            s3.createBucket("fleet");
            S3Location location = S3Location.parse("--publish", "s3://fleet/register");
            try (S3FileStore publisher = S3FileStore.open(s3.connection(), location);
                    S3FileStore follower = S3FileStore.open(s3.connection(), location)) {
                IndexPublisher.publish(
                        root, publisher, "", PublishOptions.defaults().withPartSize(1 << 20));
                try (CadastroServer server = CadastroServer.start(EngineConfig.builder(
                                dir.resolve("cache"),
                                Database.builder()
                                        .embedded(dir.resolve("db"))
                                        .durableCommits(false)
                                        .build())
                        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.empty())
                        .clock(Clock.systemUTC())
                        .files(dir.resolve("files"))
                        .mailing(MailingOptions.defaults())
                        .following(follower, "", FollowOptions.defaults().withPoll(Duration.ZERO))
                        .build())) {
                    // Polled by the test: the server is unready until the first generation is open.
                    assertEquals(503, status(server, "/health/ready"));
                    IndexFollower f = followerOf(server);
                    assertEquals(1, f.poll().orElseThrow().generation());
                    assertEquals(200, status(server, "/health/ready"));
                    assertTrue(
                            server.register().published().documents() > 1_900,
                            server.register().published().toString());

                    LoadOptions second =
                            LoadOptions.builder(dir.resolve("dump-9")).build();
                    DumpLoader.load(second, root, DumpLoader.buildOptionsFor(second, 2_009));
                    IndexPublisher.publish(
                            root, publisher, "", PublishOptions.defaults().withPartSize(1 << 20));
                    // s3proxy's filesystem backend keeps each object as a file: flip a byte of the largest.
                    Path largest;
                    try (Stream<Path> files = Files.walk(dir.resolve("s3/fleet/register/gen-2"))) {
                        largest = files.filter(Files::isRegularFile)
                                .max((a, b) -> Long.compare(
                                        a.toFile().length(), b.toFile().length()))
                                .orElseThrow();
                    }
                    long at = largest.toFile().length() / 3;
                    int original;
                    try (RandomAccessFile raf = new RandomAccessFile(largest.toFile(), "rw")) {
                        raf.seek(at);
                        original = raf.read();
                        raf.seek(at);
                        raf.write(original ^ 0x01);
                    }
                    assertThrows(IndexFollower.ChecksumException.class, f::poll);
                    assertEquals(1, server.register().published().generation());
                    assertEquals(200, status(server, "/health/ready"));
                    assertTrue(!Files.exists(dir.resolve("cache/gen-2")));

                    try (RandomAccessFile raf = new RandomAccessFile(largest.toFile(), "rw")) {
                        raf.seek(at);
                        raf.write(original);
                    }
                    IndexFollower.Round round = f.poll().orElseThrow();
                    assertEquals(2, round.generation());
                    assertTrue(round.reused() > 0, round.toString());
                    assertEquals(2, server.register().published().generation());
                }
            }
        }
    }

    private static IndexFollower followerOf(CadastroServer server) {
        return IndexFollower.of(server.register()).orElseThrow();
    }
}
