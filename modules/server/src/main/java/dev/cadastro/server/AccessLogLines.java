package dev.cadastro.server;

import dev.cadastro.http.AccessLog;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Where the launcher sends the access log when the JDK's logging is the backend (it is unless a host
 * installs another {@code System.LoggerFinder}): a handler of its own on the {@value AccessLog#LOGGER}
 * logger, one line per request, the time (UTC, ISO 8601) then the fields, at INFO whatever the root
 * logger's level, not passed on to the root logger's handlers.
 *
 * <p>A request never waits for the output: its line goes into a bounded queue that one writer thread
 * empties, flushing whenever the queue runs dry. When the output is slower than the requests (a
 * blocked pipe, a terminal held by a pager) the queue fills and further lines are dropped and counted
 * ({@link #dropped()}, the {@code cadastro_access_log_dropped_total} metric) instead of holding every
 * request, health checks included, behind the output.
 */
public final class AccessLogLines {
    /** Kept here: the JDK holds loggers weakly, and a collected logger would lose its handler. */
    private static final Logger ACCESS = Logger.getLogger(AccessLog.LOGGER);

    /** Lines waiting for the output: a few seconds of a busy server's requests. */
    static final int QUEUE_LINES = 16_384;

    private static volatile Queued installed;

    private AccessLogLines() {}

    /** Sends the access log to {@code out}; a second call changes nothing. */
    public static synchronized void to(OutputStream out) {
        if (ACCESS.getHandlers().length > 0) {
            return;
        }
        Queued handler = handler(out, QUEUE_LINES);
        ACCESS.addHandler(handler);
        ACCESS.setUseParentHandlers(false);
        ACCESS.setLevel(Level.INFO);
        installed = handler;
    }

    /** Lines dropped so far because the output was behind; 0 when the access log is not on. */
    public static long dropped() {
        Queued h = installed;
        return h == null ? 0 : h.dropped();
    }

    /** A handler writing to {@code out} from its own thread, keeping at most {@code capacity} lines queued. */
    static Queued handler(OutputStream out, int capacity) {
        return new Queued(out, capacity);
    }

    /** The handler: publishing formats and queues the line, never touching the output. */
    static final class Queued extends Handler {
        private final OutputStream out;
        private final BlockingQueue<String> lines;
        private final AtomicLong dropped = new AtomicLong();
        private final Thread writer;

        private Queued(OutputStream out, int capacity) {
            this.out = out;
            this.lines = new ArrayBlockingQueue<>(capacity);
            setLevel(Level.INFO);
            this.writer =
                    Thread.ofPlatform().name("cadastro-access-log").daemon().start(this::writeLines);
        }

        @Override
        public void publish(LogRecord record) {
            if (record == null || !isLoggable(record)) {
                return;
            }
            String line = record.getInstant() + " " + record.getMessage() + System.lineSeparator();
            if (!lines.offer(line)) {
                dropped.incrementAndGet();
            }
        }

        long dropped() {
            return dropped.get();
        }

        private void writeLines() {
            List<String> batch = new ArrayList<>();
            try {
                while (true) {
                    batch.add(lines.take());
                    lines.drainTo(batch);
                    StringBuilder b = new StringBuilder();
                    batch.forEach(b::append);
                    batch.clear();
                    try {
                        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
                        if (lines.isEmpty()) {
                            out.flush();
                        }
                    } catch (IOException e) {
                        reportError("writing the access log failed", e, java.util.logging.ErrorManager.WRITE_FAILURE);
                    }
                }
            } catch (InterruptedException e) {
                // Closed.
            }
        }

        @Override
        public void flush() {
            // The writer flushes whenever the queue runs dry.
        }

        /** Stops the writer; lines still queued are not written. */
        @Override
        public void close() {
            writer.interrupt();
        }
    }
}
