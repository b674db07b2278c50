package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rate-limit header fields leave Jetty (through the servlet bridge) spelt as the contract and the
 * clients' documentation write them, {@code X-RateLimit-Limit}, read from the raw bytes of the answer.
 * Names are case-insensitive (RFC 9110), but a client that looks them up case-sensitively finds them.
 *
 * <p>Not on the JDK's built-in server: its {@code com.sun.net.httpserver.Headers} rewrites every name
 * to one capital followed by lower case ({@code X-ratelimit-limit}) and offers no way around it, so
 * only a runtime that keeps the names as given (Jetty) can send the contract's spelling.
 */
class RateLimitHeaderCaseTest {
    private static final List<String> NAMES = List.of(
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
            "X-RateLimit-Limit-Day",
            "X-RateLimit-Remaining-Day",
            "X-RateLimit-Reset-Day");

    @Test
    void jettySendsTheRateLimitHeaderNamesExactlyAsTheContractSpellsThem() throws Exception {
        ServerFixture f = ServerFixture.on(TestRuntime.JETTY);
        String key = f.key(f.account(10, 1000));
        for (String target : List.of("/v1/empresas?ufs=SP&apenas_total=true", "/v1/empresas?ufs=XX")) {
            RawHttp.Answer a = RawHttp.send(
                    f.port(),
                    ("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(target.endsWith("XX") ? 422 : 200, a.status(), a.toString());
            for (String name : NAMES) {
                assertTrue(a.head().contains("\r\n" + name + ": "), name + " spelt exactly, in: " + a.head());
            }
        }
    }
}
