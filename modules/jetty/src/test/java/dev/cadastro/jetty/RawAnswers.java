package dev.cadastro.jetty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Reads HTTP/1.1 answers one after another from a raw socket's input, as a pipelining client does. */
final class RawAnswers {
    /** One answer: its status, head and body. */
    record Answer(int status, String head, String body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        boolean closes() {
            String c = header("Connection");
            return c != null && c.toLowerCase(Locale.ROOT).contains("close");
        }
    }

    private final InputStream in;

    RawAnswers(InputStream in) {
        this.in = in;
    }

    /** The next answer, or null when the connection ended before one began. */
    Answer next() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                if (head.size() == 0) {
                    return null;
                }
                throw new IOException(
                        "the connection ended inside a head: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        Answer partial = new Answer(status, text, "");
        String length = partial.header("Content-Length");
        byte[] body = length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
        return new Answer(status, text, new String(body, StandardCharsets.UTF_8));
    }
}
