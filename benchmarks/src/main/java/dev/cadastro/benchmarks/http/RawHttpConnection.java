package dev.cadastro.benchmarks.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection driven by one thread: writes a GET or a JSON POST, reads the status line, the
 * headers and a {@code Content-Length} body. Far cheaper per request than {@code java.net.http}, so
 * on a small machine the load generator leaves more of the cores to the server it measures.
 * Reconnects when the server closes the connection.
 */
final class RawHttpConnection implements AutoCloseable {
    /**
     * One answer: the status and the body's bytes, decoded only when asked ({@link #body}): a page of 50
     * is some 35 KB, and decoding every one into a string took a tenth of the machine in a profile of
     * the pages benchmark, CPU the server it measures would otherwise have.
     */
    record Answer(int status, byte[] bytes) {
        /** The body as text. */
        String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /**
         * The digits that follow the last occurrence of {@code key} (ASCII, e.g. {@code
         * "creditos_consumidos":}) as a number, or -1 when the key is absent or not followed by digits.
         * Searched from the end: the company-data answers put their credits last.
         */
        long numberAfterLast(byte[] key) {
            return numberAt(key, false);
        }

        /** As {@link #numberAfterLast}, for the first occurrence (a batch's total comes before its items'). */
        long numberAfterFirst(byte[] key) {
            return numberAt(key, true);
        }

        private long numberAt(byte[] key, boolean first) {
            int last = bytes.length - key.length;
            outer:
            for (int n = 0; n <= last; n++) {
                int i = first ? n : last - n;
                for (int k = 0; k < key.length; k++) {
                    if (bytes[i + k] != key[k]) {
                        continue outer;
                    }
                }
                long value = 0;
                int digits = 0;
                for (int j = i + key.length; j < bytes.length && bytes[j] >= '0' && bytes[j] <= '9'; j++) {
                    value = value * 10 + (bytes[j] - '0');
                    digits++;
                }
                return digits == 0 ? -1 : value;
            }
            return -1;
        }
    }

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] line = new byte[16 * 1024];

    RawHttpConnection(int port) {
        this.port = port;
    }

    Answer get(String pathAndQuery, String authorization) throws IOException {
        return exchange(
                "GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization + "\r\n\r\n");
    }

    /** A POST of a JSON body. */
    Answer post(String path, String authorization, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return exchange("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n" + json);
    }

    private Answer exchange(String request) throws IOException {
        if (socket == null) {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = new BufferedOutputStream(socket.getOutputStream(), 4 * 1024);
        }
        try {
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String status = readLine();
            int code = Integer.parseInt(status.substring(9, 12));
            int length = -1;
            boolean close = false;
            for (String h = readLine(); !h.isEmpty(); h = readLine()) {
                int colon = h.indexOf(':');
                String name = h.substring(0, colon).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Integer.parseInt(h.substring(colon + 1).trim());
                } else if (name.equalsIgnoreCase("Connection")
                        && h.substring(colon + 1).trim().equalsIgnoreCase("close")) {
                    close = true;
                }
            }
            byte[] body = length <= 0 ? new byte[0] : in.readNBytes(length);
            if (length > 0 && body.length != length) {
                throw new EOFException("body cut at " + body.length + " of " + length + " bytes");
            }
            if (close) {
                close();
            }
            return new Answer(code, body);
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    private String readLine() throws IOException {
        int n = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed mid-answer");
            }
            if (b == '\n') {
                int end = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
                return new String(line, 0, end, StandardCharsets.ISO_8859_1);
            }
            if (n == line.length) {
                throw new IOException("header line longer than " + line.length + " bytes");
            }
            line[n++] = (byte) b;
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a dead connection
            }
            socket = null;
        }
    }
}
