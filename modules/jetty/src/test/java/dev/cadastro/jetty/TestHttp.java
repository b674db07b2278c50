package dev.cadastro.jetty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.*;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A real server on a free loopback port and a real client, for tests. */
final class TestHttp implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final JettyRuntime server;
    final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    TestHttp(Handler handler, Service envelope) throws IOException {
        this(handler, envelope, RuntimeOptions.defaults());
    }

    TestHttp(Handler handler, Service envelope, RuntimeOptions options) throws IOException {
        server = JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), handler, envelope, options);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    HttpResponse<String> get(String pathAndQuery, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.GET().build());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends raw bytes and returns what the server wrote before closing or going quiet. */
    String raw(String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder b = new StringBuilder();
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    b.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    if (b.indexOf("\r\n\r\n") >= 0 && complete(b)) {
                        break;
                    }
                }
            } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
                // the server closed or stopped answering: return what came
            }
            return b.toString();
        }
    }

    private static boolean complete(StringBuilder b) {
        int head = b.indexOf("\r\n\r\n");
        String headers = b.substring(0, head).toLowerCase(java.util.Locale.ROOT);
        int cl = headers.indexOf("content-length:");
        if (cl < 0) {
            return true;
        }
        int end = headers.indexOf("\r\n", cl);
        int length = Integer.parseInt(
                headers.substring(cl + 15, end < 0 ? headers.length() : end).trim());
        return b.length() - head - 4 >= length;
    }

    static JsonNode json(HttpResponse<String> response) {
        return json(response.body());
    }

    static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
