package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.calls.push.WebhookSender;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sender against raw sockets that misbehave the ways a receiver can: a body that trickles or never
 * ends after the status, headers that never end, a connection closed without an answer, a kept-alive
 * connection closed while idle. Each attempt must end by itself; the bound each test waits is many
 * times the attempt's timeout, so it checks that the attempt ends, not how fast.
 */
class JdkWebhookSenderTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final long ENDS_WITHIN_SECONDS = 20;

    /** What the raw receiver does once it has read request number {@code n} on a connection. */
    @FunctionalInterface
    private interface Answer {
        /** @return whether to read another request on the same connection */
        boolean answer(Socket s, int n) throws Exception;
    }

    private final AtomicInteger requests = new AtomicInteger();
    /** Connections the receiver has closed (after its last answer on them). */
    private final AtomicInteger closed = new AtomicInteger();

    private ServerSocket server;

    @AfterEach
    void closeServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private URI serve(Answer answer) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ServerSocket ss = server;
        Thread.ofVirtual().start(() -> {
            while (!ss.isClosed()) {
                Socket s;
                try {
                    s = ss.accept();
                } catch (IOException e) {
                    return;
                }
                Thread.ofVirtual().start(() -> {
                    try (s) {
                        InputStream in = new BufferedInputStream(s.getInputStream());
                        boolean more = true;
                        while (more && readRequest(in)) {
                            more = answer.answer(s, requests.incrementAndGet());
                        }
                    } catch (Exception e) {
                        // the sender gave up on the connection: nothing more to answer
                    } finally {
                        closed.incrementAndGet();
                    }
                });
            }
        });
        return URI.create("http://127.0.0.1:" + ss.getLocalPort() + "/hook");
    }

    private static boolean readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        if (c == -1) {
            return false;
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return true;
    }

    private static void write(Socket s, String text) throws IOException {
        OutputStream o = s.getOutputStream();
        o.write(text.getBytes(StandardCharsets.US_ASCII));
        o.flush();
    }

    private static WebhookSender.Outcome sendWithin(JdkWebhookSender sender, URI url) throws Exception {
        return sendWithin(sender, url, TIMEOUT);
    }

    private static WebhookSender.Outcome sendWithin(JdkWebhookSender sender, URI url, Duration timeout)
            throws Exception {
        return CompletableFuture.supplyAsync(
                        () -> sender.send(new WebhookSender.Request(
                                url, List.of(), "{}".getBytes(StandardCharsets.UTF_8), timeout)),
                        r -> Thread.ofVirtual().start(r))
                .get(ENDS_WITHIN_SECONDS, TimeUnit.SECONDS);
    }

    private static JdkWebhookSender sender() {
        return new JdkWebhookSender(Duration.ofMillis(500), Clock.systemUTC());
    }

    @Test
    void aStatusFollowedByATricklingBodyEndsAtTheDeadlineWithTheStatus() throws Exception {
        URI url = serve((s, n) -> {
            write(s, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
            for (int i = 0; i < 100_000; i++) {
                write(s, "x");
                Thread.sleep(200);
            }
            return false;
        });
        WebhookSender.Outcome o = sendWithin(sender(), url);
        assertEquals(WebhookSender.Kind.DELIVERED, o.kind(), o.detail());
        assertEquals(Optional.of(200), o.status());
    }

    @Test
    void anEndlessBodyIsDroppedAfterTheLimitAndTheStatusCounts() throws Exception {
        AtomicInteger written = new AtomicInteger();
        URI url = serve((s, n) -> {
            write(s, "HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "4000\r\n" + "x".repeat(0x4000) + "\r\n";
            while (true) {
                write(s, chunk);
                written.addAndGet(0x4000);
            }
        });
        WebhookSender.Outcome o = sendWithin(sender(), url);
        assertEquals(WebhookSender.Kind.STATUS, o.kind(), o.detail());
        assertEquals(Optional.of(500), o.status());
    }

    @Test
    void headersThatNeverEndAreATimeout() throws Exception {
        URI url = serve((s, n) -> {
            write(s, "HTTP/1.1 200 OK\r\n");
            while (true) {
                write(s, "X-More: yes\r\n");
                Thread.sleep(50);
            }
        });
        WebhookSender.Outcome o = sendWithin(sender(), url);
        assertEquals(WebhookSender.Kind.TIMEOUT, o.kind(), o.detail());
        assertEquals(Optional.empty(), o.status());
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsOneRequestNotTwo() throws Exception {
        URI url = serve((s, n) -> {
            Thread.sleep(200);
            return false;
        });
        // A deadline far beyond the receiver's 200 ms: the outcome must be the closed connection, even on
        // a machine too busy to notice the close within the short deadline the timeout tests use.
        WebhookSender.Outcome o = sendWithin(sender(), url, Duration.ofSeconds(8));
        assertEquals(WebhookSender.Kind.CONNECTION, o.kind(), o.detail());
        // The count is final here, no wait needed: the receiver counts a request before it closes the
        // connection, and the outcome comes only after the last close, so a resend (on a new connection,
        // failing the same way) would have been counted before the outcome.
        assertEquals(1, requests.get(), "a receiver that dropped a request it had read gets it once per attempt");
    }

    @Test
    void aKeptAliveConnectionTheReceiverClosedIsSentAgainOnANewOne() throws Exception {
        // The first request is answered on a kept-alive connection that the receiver then closes
        // without saying so; the second attempt finds it dead at once and goes out on a new one.
        URI url = serve((s, n) -> {
            write(s, "HTTP/1.1 204 No Content\r\n\r\n");
            if (n == 1) {
                s.shutdownInput();
                s.setSoLinger(true, 0);
            }
            return n != 1;
        });
        JdkWebhookSender sender = sender();
        assertEquals(
                WebhookSender.Kind.DELIVERED,
                sendWithin(sender, url, Duration.ofSeconds(8)).kind());
        // The receiver has closed the kept-alive connection before the second attempt.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ENDS_WITHIN_SECONDS);
        while (closed.get() < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the receiver did not close the first connection");
            }
            Thread.sleep(5);
        }
        WebhookSender.Outcome second = sendWithin(sender, url, Duration.ofSeconds(8));
        assertEquals(WebhookSender.Kind.DELIVERED, second.kind(), second.detail());
    }
}
