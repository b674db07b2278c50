package dev.cadastro.server.cli;

import java.time.Instant;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Sets how much the JDK logging backend shows, where System.Logger (ours, Lucene's) and SLF4J (the
 * embedded PostgreSQL's, HikariCP's) end. The command line is quiet by default: warnings only.
 */
final class Logging {
    /**
     * Lucene warns on every start that the Vector API incubator module is not readable. Enabling it
     * ({@code --add-modules jdk.incubator.vector}) trades that line for the JVM's own "Using incubator
     * modules" warning, which no option turns off, so the default level hides Lucene's advice instead;
     * {@code --log info} shows it, and {@code CADASTRO_JAVA_OPTS} can enable the module
     * (docs/adr/0018-command-line-on-picocli.md).
     */
    private static final Logger VECTORIZATION = Logger.getLogger("org.apache.lucene.internal.vectorization");

    private Logging() {}

    static void apply(CommonOptions.LogLevel level) {
        Level jul = switch (level) {
            case warning -> Level.WARNING;
            case info -> Level.INFO;
            case debug -> Level.FINE;
        };
        Logger root = Logger.getLogger("");
        root.setLevel(jul);
        for (Handler h : root.getHandlers()) {
            h.setLevel(jul);
        }
        VECTORIZATION.setLevel(level == CommonOptions.LogLevel.warning ? Level.SEVERE : null);
    }

    /** Kept here: the JDK holds loggers weakly, and a collected logger would lose its handler. */
    private static final Logger ACCESS = Logger.getLogger("dev.cadastro.access");

    /**
     * The access log of {@code serve} and {@code demo}: its own handler on standard output, each line the
     * time (UTC, ISO 8601) and the request's fields, at INFO whatever {@code --log} says (the other
     * loggers stay as quiet as it asks), not passed on to the root logger's standard error.
     */
    static synchronized void accessLogToStandardOutput() {
        if (ACCESS.getHandlers().length > 0) {
            return;
        }
        StreamHandler handler = new StreamHandler(System.out, new AccessLineFormat()) {
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

    private static final class AccessLineFormat extends Formatter {
        @Override
        public String format(LogRecord record) {
            Instant at = record.getInstant();
            return at + " " + record.getMessage() + System.lineSeparator();
        }
    }
}
