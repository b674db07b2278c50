package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.CallRecordsOptions;
import dev.cadastro.server.DumpLoader;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.store.Database;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The block {@code serve} and {@code demo} print: a real server with its three listeners on free
 * ports, and every URL the block prints fetched through a real socket.
 */
class ListenerUrlsTest {

    @Test
    void printsTheLiveAndReadyUrlsOfEveryListenerAndEachAnswersOk() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "listener-urls-");
        DumpGenerator.generate(
                dir.resolve("dump"),
                GeneratorOptions.builder(50).seed(5).threads(1).build());
        LoadOptions load = LoadOptions.builder(dir.resolve("dump")).build();
        DumpLoader.load(load, dir.resolve("index"), DumpLoader.buildOptionsFor(load, 50));
        InetSocketAddress free = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (CadastroServer server = CadastroServer.start(
                EngineConfig.builder(
                                dir.resolve("index"),
                                Database.builder()
                                        .embedded(dir.resolve("db"))
                                        .durableCommits(false)
                                        .build())
                        .address(free)
                        .runtime(RuntimeOptions.builder().build())
                        .requestsPerMinute(OptionalLong.empty())
                        .clock(Clock.systemUTC())
                        .build(),
                CallRecordsOptions.of(free, free))) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ListenerUrls.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), server);
            String printed = bytes.toString(StandardCharsets.UTF_8);

            List<String> urls = new ArrayList<>();
            Matcher m = Pattern.compile("http://\\S+").matcher(printed);
            while (m.find()) {
                urls.add(m.group());
            }
            assertEquals(6, urls.size(), "live and ready of three listeners: " + printed);
            Set<Integer> ports = new HashSet<>();
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            for (String url : urls) {
                assertTrue(url.endsWith("/health/live") || url.endsWith("/health/ready"), url);
                URI uri = URI.create(url);
                ports.add(uri.getPort());
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), url + " " + r.body());
                // Readiness also names the register's month (dados_referencia) where the dump stated one.
                assertTrue(r.body().startsWith("{\"status\":\"ok\""), url + " " + r.body());
            }
            assertEquals(
                    Set.of(
                            server.port(),
                            server.calls().orElseThrow().port(),
                            server.calls().orElseThrow().recordingsAddress().getPort()),
                    ports,
                    printed);
            for (String listener : List.of("company data", "call records", "recordings")) {
                assertTrue(printed.contains("  " + listener + " "), listener + " named: " + printed);
            }
        }
    }
}
