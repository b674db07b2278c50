package dev.cadastro.server;

import dev.cadastro.http.AccessLog;
import java.io.OutputStream;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Where the launcher sends the access log when the JDK's logging is the backend (it is unless a host
 * installs another {@code System.LoggerFinder}): a handler of its own on the {@value AccessLog#LOGGER}
 * logger, one line per request, the time (UTC, ISO 8601) then the fields, flushed per line, at INFO
 * whatever the root logger's level, not passed on to the root logger's handlers.
 */
public final class AccessLogLines {
    /** Kept here: the JDK holds loggers weakly, and a collected logger would lose its handler. */
    private static final Logger ACCESS = Logger.getLogger(AccessLog.LOGGER);

    private AccessLogLines() {}

    /** Sends the access log to {@code out}; a second call changes nothing. */
    public static synchronized void to(OutputStream out) {
        if (ACCESS.getHandlers().length > 0) {
            return;
        }
        StreamHandler handler = new StreamHandler(out, new LineFormat()) {
            @Override
            public synchronized void publish(LogRecord record) {
                super.publish(record);
                flush();
            }
        };
        handler.setLevel(Level.INFO);
        ACCESS.addHandler(handler);
        ACCESS.setUseParentHandlers(false);
        ACCESS.setLevel(Level.INFO);
    }

    private static final class LineFormat extends Formatter {
        @Override
        public String format(LogRecord record) {
            return record.getInstant() + " " + record.getMessage() + System.lineSeparator();
        }
    }
}
