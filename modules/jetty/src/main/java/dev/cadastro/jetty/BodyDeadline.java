package dev.cadastro.jetty;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * The body timeout: a request's body must arrive whole within {@code bodyTimeout} of the request
 * reaching the servlet. A read after that fails with a timeout, which the bridge answers 408 with
 * {@code Connection: close}; a read that waits for bytes that never come is cut by the idle timeout
 * the same way. So a client that trickles its body a few bytes at a time cannot hold a request open.
 */
final class BodyDeadline implements Filter {
    private final long timeoutNanos;

    BodyDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long deadline = System.nanoTime() + timeoutNanos;
        chain.doFilter(
                new HttpServletRequestWrapper((HttpServletRequest) request) {
                    private ServletInputStream in;

                    @Override
                    public ServletInputStream getInputStream() throws IOException {
                        if (in == null) {
                            in = new Deadlined(super.getInputStream(), deadline, timeoutNanos);
                        }
                        return in;
                    }
                },
                response);
    }

    private static final class Deadlined extends ServletInputStream {
        private final ServletInputStream in;
        private final long deadline;
        private final long timeoutNanos;

        Deadlined(ServletInputStream in, long deadline, long timeoutNanos) {
            this.in = in;
            this.deadline = deadline;
            this.timeoutNanos = timeoutNanos;
        }

        private void check() throws IOException {
            if (System.nanoTime() - deadline > 0 && !in.isFinished()) {
                throw new IOException(
                        "the request body did not arrive within bodyTimeout",
                        new TimeoutException("bodyTimeout " + timeoutNanos / 1_000_000 + " ms"));
            }
        }

        @Override
        public int read() throws IOException {
            check();
            int b = in.read();
            check();
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            check();
            int n = in.read(b, off, len);
            if (n > 0) {
                check();
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
