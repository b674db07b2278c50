package dev.cadastro.jetty;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.*;
import dev.cadastro.http.internal.JsonBody;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A JSON body refused mid-read (a chunked body past the limit) through the parser every endpoint uses,
 * which closes its source when it stops: the 413 must still reach a client that writes its whole body
 * after the head, on the Jetty runtime.
 */
class RefusedJsonBodyTest {
    @Test
    void aChunkedJsonBodyPastTheLimitIsAnswered413ThroughTheParser() throws Exception {
        Router router = Router.builder(Service.COMPANY_DATA)
                .post("/v1/json", r -> {
                    JsonBody.object(r.body());
                    return Response.of(200, "text/plain", "parsed".getBytes(StandardCharsets.US_ASCII));
                })
                .build();
        RuntimeOptions options = RuntimeOptions.defaults();
        try (JettyRuntime server = JettyRuntime.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        router,
                        Service.COMPANY_DATA,
                        options);
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            var out = socket.getOutputStream();
            out.write(
                    "POST /v1/json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(200);
            String value = "x".repeat(500_000);
            String json = "{\"a\":\"" + value + "\",\"b\":\"" + value + "\",\"c\":\"" + value + "\"}";
            out.write((Integer.toHexString(json.length()) + "\r\n" + json + "\r\n0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer.substring(0, Math.min(200, answer.length())));
        }
    }
}
