package dev.cadastro.server.cli;

import dev.cadastro.http.jdk.RuntimeOptions;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.store.Database;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./cadastro serve --index DIR [--database URL | --embedded-db DIR] [--port P] [--bind ADDR]
 * [--requests-per-minute N]}: serves the company-data API over a published index until stopped.
 */
public final class ServeCommand implements Command {
    static final int DEFAULT_PORT = 8080;

    @Override
    public String name() {
        return "serve";
    }

    @Override
    public String summary() {
        return "--index DIR [--database URL | --embedded-db DIR] [--port P] [--bind ADDR]  serve the HTTP API";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        ServerFlags flags = ServerFlags.parse(
                args, Set.of("index", "database", "embedded-db", "port", "bind", "calls-port", "requests-per-minute"));
        Path index = flags.path("index").orElseThrow(() -> new UsageException("--index DIR is required"));
        if (flags.has("database") && flags.has("embedded-db")) {
            throw new UsageException("give --database URL or --embedded-db DIR, not both");
        }
        if (flags.has("calls-port")) {
            throw new UsageException("--calls-port: the call-records service is not part of this build yet");
        }
        Database database = flags.text("database")
                .map(Database::url)
                .orElseGet(() -> Database.embedded(flags.path("embedded-db").orElse(Database.DEFAULT_EMBEDDED_DIR)));
        InetSocketAddress address =
                new InetSocketAddress(flags.text("bind").orElse("0.0.0.0"), flags.port("port", DEFAULT_PORT));
        OptionalLong perMinute = flags.has("requests-per-minute")
                ? OptionalLong.of(flags.positive("requests-per-minute", 120))
                : OptionalLong.empty();
        CadastroServer server = CadastroServer.start(new CadastroServer.Config(
                index, database, address, RuntimeOptions.defaults(), perMinute, Clock.systemUTC()));
        out.println("cadastro: serving the company-data API on http://" + hostFor(address) + ":" + server.port()
                + "/v1 (OpenAPI at /v1/openapi.json); Ctrl-C stops");
        out.flush();
        awaitShutdown(server);
        return 0;
    }

    static String hostFor(InetSocketAddress address) {
        return address.getAddress().isAnyLocalAddress() ? "localhost" : address.getHostString();
    }

    /** Blocks until the JVM is asked to stop, then closes the server. */
    static void awaitShutdown(AutoCloseable server) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception e) {
                                System.err.println("cadastro: closing failed: " + e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "cadastro-shutdown"));
        stopped.await();
    }
}
