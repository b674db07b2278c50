package dev.cadastro.server.cli;

import dev.cadastro.server.AccessLogLines;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

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

    /**
     * The access log of {@code serve} and {@code demo} on standard output ({@link AccessLogLines}), at
     * INFO whatever {@code --log} says; the other loggers stay as quiet as it asks.
     */
    static void accessLogToStandardOutput() {
        AccessLogLines.to(System.out);
    }
}
