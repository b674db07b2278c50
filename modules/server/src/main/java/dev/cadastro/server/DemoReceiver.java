package dev.cadastro.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cadastro.core.calls.push.WebhookSignature;
import dev.cadastro.providers.JdkWebhookSender;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's push receiver: a small HTTP endpoint on loopback that prints one line per call it
 * receives (the call's id, its {@code datahistorico}, the {@code webhook-id}, and whether the
 * Standard Webhooks signature verified) and answers 204. What a client's endpoint does, minus the
 * CRM: it checks the client's header, verifies the signature over the raw body, and would
 * deduplicate on {@code webhook-id}.
 */
public final class DemoReceiver implements AutoCloseable {
    /** The header and value the demo destination is set with. */
    public static final String HEADER = "Authorization";

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern CLASSIFIED = Pattern.compile("\"datahistorico\"\\s*:\\s*\"([^\"]*)\"");

    private final HttpServer server;
    private final String secret;
    private final String token;
    private final PrintStream out;
    private final Clock clock;

    private DemoReceiver(HttpServer server, String secret, String token, PrintStream out, Clock clock) {
        this.server = server;
        this.secret = secret;
        this.token = token;
        this.out = out;
        this.clock = clock;
    }

    /**
     * Starts listening on a free loopback port.
     *
     * @param secret the destination's signing secret ({@code whsec_...})
     * @param token the value the destination sends in {@link #HEADER}
     */
    public static DemoReceiver start(String secret, String token, PrintStream out, Clock clock) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        DemoReceiver r = new DemoReceiver(
                s, Objects.requireNonNull(secret, "secret"), Objects.requireNonNull(token, "token"), out, clock);
        s.createContext("/ligacoes", r::handle);
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        s.start();
        return r;
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ligacoes");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            if (!"POST".equals(exchange.getRequestMethod())
                    || !token.equals(exchange.getRequestHeaders().getFirst(HEADER))) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            String webhookId = exchange.getRequestHeaders().getFirst(JdkWebhookSender.ID_HEADER);
            boolean verified = WebhookSignature.verify(
                    secret,
                    webhookId,
                    exchange.getRequestHeaders().getFirst(JdkWebhookSender.TIMESTAMP_HEADER),
                    exchange.getRequestHeaders().getFirst(JdkWebhookSender.SIGNATURE_HEADER),
                    body,
                    clock.instant(),
                    Duration.ofMinutes(5));
            String text = new String(body, StandardCharsets.UTF_8);
            synchronized (out) {
                out.println("push received: call " + first(ID, text) + ", datahistorico " + first(CLASSIFIED, text)
                        + ", " + webhookId + ", signature " + (verified ? "verified" : "INVALID"));
                out.flush();
            }
            exchange.sendResponseHeaders(verified ? 204 : 400, -1);
        }
    }

    private static String first(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : "?";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
