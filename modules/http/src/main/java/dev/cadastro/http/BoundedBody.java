package dev.cadastro.http;

import dev.cadastro.core.error.Message;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body that fails with the {@link Limits}' 413 once more than {@link Limits#maxBodyBytes()}
 * bytes have been read, and hands a failed read to a {@link Limits.ReadFailure}: the one body stream
 * of every runtime ({@link Limits#boundedBody}).
 */
final class BoundedBody extends InputStream {
    private final InputStream in;
    private final Limits limits;
    private final Limits.ReadFailure onFailure;
    private long read;

    BoundedBody(InputStream in, Limits limits, Limits.ReadFailure onFailure) {
        this.in = in;
        this.limits = limits;
        this.onFailure = onFailure;
    }

    @Override
    public int read() throws IOException {
        int b;
        try {
            b = in.read();
        } catch (IOException e) {
            onFailure.failed(e, read);
            throw e;
        }
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(buf, off, len);
        } catch (IOException e) {
            onFailure.failed(e, read);
            throw e;
        }
        if (n > 0) {
            count(n);
        }
        return n;
    }

    private void count(int n) {
        read += n;
        if (read > limits.maxBodyBytes()) {
            throw limits.bodyTooLarge(Message.BODY_HAS_MORE.with(limits.maxBodyBytes()));
        }
    }

    /**
     * Leaves the runtime's stream open: the runtime owns it and closes it with the exchange, after it has
     * read what is left of a refused body ({@link Limits#swallow}). A handler's JSON parser closes its
     * source when done (Jackson's default); closing the JDK's stream there would drain only 64 KiB and
     * mark it closed, so the rest of a refused body could no longer be read and the close would reset the
     * connection under the 413.
     */
    @Override
    public void close() {
        // The runtime closes the underlying stream.
    }
}
