package dev.cadastro.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Raw bytes to a real port and the first answer back, with no client library in between to encode,
 * reject or repair what is sent.
 */
final class RawHttp {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RawHttp() {}

    /** One answer: the status, the head as ISO-8859-1 text and the body. */
    record Answer(int status, String head, byte[] body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + head + text(), e);
            }
        }

        /** The envelope's code, or null when the body is not a company-data envelope. */
        String code() {
            try {
                JsonNode code = JSON.readTree(body).path("erro").path("code");
                return code.isTextual() ? code.asText() : null;
            } catch (IOException e) {
                return null;
            }
        }

        @Override
        public String toString() {
            return head + text();
        }
    }

    static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Sends the request on a new connection and reads the first answer (no body after a HEAD). */
    static Answer send(int port, byte[] request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            boolean head =
                    request.length >= 5 && new String(request, 0, 5, StandardCharsets.ISO_8859_1).equals("HEAD ");
            return read(s.getInputStream(), head);
        }
    }

    static Answer read(InputStream in, boolean headOnly) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0d0a0d0a) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed after " + head.size() + " bytes of an answer: " + head);
            }
            head.write(b);
            last4 = (last4 << 8) | b;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        Answer a = new Answer(status, text, new byte[0]);
        String length = a.header("content-length");
        if (headOnly || length == null) {
            return a;
        }
        return new Answer(status, text, in.readNBytes(Integer.parseInt(length)));
    }
}
