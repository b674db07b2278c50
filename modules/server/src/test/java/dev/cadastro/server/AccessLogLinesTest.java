package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** The launcher's access log handler when its output blocks: requests go on, lines are dropped and counted. */
class AccessLogLinesTest {
    /** An output that blocks every write until opened, as a full pipe or a paused terminal does. */
    private static final class Gated extends OutputStream {
        final CountDownLatch open = new CountDownLatch(1);
        final ByteArrayOutputStream written = new ByteArrayOutputStream();

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                open.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            synchronized (written) {
                written.write(b, off, len);
            }
        }

        String text() {
            synchronized (written) {
                return written.toString(StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void aBlockedOutputNeverHoldsTheRequestsItsLinesAreDroppedAndCounted() throws Exception {
        Gated out = new Gated();
        AccessLogLines.Queued handler = AccessLogLines.handler(out, 4);
        try {
            CompletableFuture<Void> requests = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 20; i++) {
                    handler.publish(new LogRecord(Level.INFO, "service=company-data status=200 n=" + i));
                }
            });
            // With the output blocked, logging 20 requests must still return.
            requests.get(10, TimeUnit.SECONDS);
            // At most one batch (up to 1 + 4 lines) is held by the blocked write and 4 more are queued.
            assertTrue(handler.dropped() >= 20 - (1 + 4) - 4, "dropped " + handler.dropped());

            out.open.countDown();
            long kept = 20 - handler.dropped();
            for (int i = 0; i < 500 && out.text().lines().count() < kept; i++) {
                Thread.sleep(10);
            }
            String text = out.text();
            assertEquals(kept, text.lines().count(), text);
            assertTrue(text.lines().findFirst().orElseThrow().endsWith(" service=company-data status=200 n=0"), text);
        } finally {
            handler.close();
        }
    }
}
