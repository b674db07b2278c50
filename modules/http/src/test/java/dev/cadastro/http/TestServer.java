package dev.cadastro.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cadastro.core.error.Service;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JDK's built-in server answering with one {@link Handler}, for this module's tests only: the
 * limits checked, errors in the envelope, {@code X-Request-Id} on every answer. No hardening: the
 * runnable server listens with Jetty (module dev.cadastro.jetty).
 */
final class TestServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;

    private TestServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static TestServer start(InetSocketAddress address, Handler handler, Service envelope) throws IOException {
        HttpServer server = HttpServer.create(address, 64);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        AtomicLong ids = new AtomicLong();
        Limits limits = Limits.defaults();
        server.createContext(
                "/", exchange -> handle(exchange, handler, envelope, limits, "t-" + ids.incrementAndGet()));
        server.start();
        return new TestServer(server, executor);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static void handle(HttpExchange exchange, Handler handler, Service envelope, Limits limits, String id)
            throws IOException {
        Response response;
        try {
            URI uri = exchange.getRequestURI();
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            String query = uri.getRawQuery();
            Headers headers = Headers.copyOf(exchange.getRequestHeaders());
            limits.checkHead(path.length() + (query == null ? 0 : query.length() + 1), headers);
            response = handler.handle(Request.of(
                    exchange.getRequestMethod(),
                    path,
                    query,
                    headers,
                    limits.boundedBody(exchange.getRequestBody()),
                    id,
                    exchange.getRemoteAddress(),
                    limits));
        } catch (Exception e) {
            response = ErrorResponses.render(
                    envelope,
                    e,
                    id,
                    AcceptLanguage.resolve(exchange.getRequestHeaders().get(AcceptLanguage.HEADER)));
        }
        if (!response.headers().contains(ErrorResponses.REQUEST_ID)) {
            response = response.withHeader(ErrorResponses.REQUEST_ID, id);
        }
        try (exchange;
                Response.Streamed streamed = response.streamed()) {
            response.headers().forEach(exchange.getResponseHeaders()::add);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            if (streamed != null) {
                if (head) {
                    exchange.getResponseHeaders().set("Content-Length", Long.toString(streamed.length()));
                }
                exchange.sendResponseHeaders(response.status(), head ? -1 : streamed.length());
                if (!head) {
                    try (OutputStream os = exchange.getResponseBody()) {
                        streamed.writeTo(os);
                    }
                }
                return;
            }
            byte[] body = response.body();
            boolean noBody = body.length == 0 || head || response.status() == 204 || response.status() == 304;
            if (head && body.length > 0) {
                exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
            }
            exchange.sendResponseHeaders(response.status(), noBody ? -1 : body.length);
            if (!noBody) {
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
