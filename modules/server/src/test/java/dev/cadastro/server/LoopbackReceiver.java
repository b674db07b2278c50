package dev.cadastro.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A webhook receiver on a real loopback socket, written on raw HTTP/1.1 so a test controls every
 * answer: its status, its headers, how long it waits before answering. Keeps every request it read.
 */
final class LoopbackReceiver implements AutoCloseable {

    /** One request as read off the socket; header names lower-cased. */
    record Received(String method, String path, Map<String, String> headers, byte[] body, Instant at) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** An answer: a status, extra headers, and how long to wait before writing it. */
    record Reply(int status, Map<String, String> headers, long delayMillis) {
        static Reply status(int status) {
            return new Reply(status, Map.of(), 0);
        }
    }

    private final ServerSocket socket;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, Reply> behaviour;

    LoopbackReceiver(Function<Received, Reply> behaviour) throws IOException {
        this.behaviour = behaviour;
        this.socket = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        threads.submit(this::accept);
    }

    static LoopbackReceiver ok() throws IOException {
        return new LoopbackReceiver(r -> Reply.status(204));
    }

    void behave(Function<Received, Reply> behaviour) {
        this.behaviour = behaviour;
    }

    URI url(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    List<Received> received() {
        return new ArrayList<>(received);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                threads.submit(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream()) {
            while (true) {
                String requestLine = line(in);
                if (requestLine == null || requestLine.isEmpty()) {
                    return;
                }
                Map<String, String> headers = new TreeMap<>();
                for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
                    int colon = h.indexOf(':');
                    headers.put(
                            h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            h.substring(colon + 1).trim());
                }
                int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
                byte[] body = in.readNBytes(length);
                String[] parts = requestLine.split(" ");
                Received r = new Received(parts[0], parts[1], Map.copyOf(headers), body, Instant.now());
                received.add(r);
                Reply reply = behaviour.apply(r);
                if (reply.delayMillis() > 0) {
                    Thread.sleep(reply.delayMillis());
                }
                StringBuilder answer = new StringBuilder("HTTP/1.1 " + reply.status() + " X\r\n");
                reply.headers()
                        .forEach((k, v) ->
                                answer.append(k).append(": ").append(v).append("\r\n"));
                answer.append("Content-Length: 0\r\n\r\n");
                out.write(answer.toString().getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the sender gave up (timeout) or the receiver closed: nothing to answer
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        threads.shutdownNow();
    }
}
