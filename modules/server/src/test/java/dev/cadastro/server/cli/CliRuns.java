package dev.cadastro.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs of the real command line: in this JVM through {@link Cli#run}, or as a child {@code java} process. */
public final class CliRuns {
    private CliRuns() {}

    /** Exit status and both streams of one run. */
    public record Run(int status, String out, String err) {}

    public static Run inProcess(String... args) {
        return inProcess(List.of(args));
    }

    public static Run inProcess(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Cli.standard().run(args, o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * The command line the launcher runs, {@code java --module-path ... --module
     * dev.cadastro.server/dev.cadastro.server.cli.Cli ARGS}, on this JVM's module path, in a C.UTF-8
     * locale as the launcher sets it.
     */
    public static List<String> javaCommand(List<String> args) {
        return javaCommand(List.of(), args);
    }

    /** {@link #javaCommand(List)} with JVM options (a heap bound, say) before the module. */
    public static List<String> javaCommand(List<String> jvmOptions, List<String> args) {
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath == null) {
            throw new IllegalStateException("tests run on the module path");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=org.apache.lucene.core");
        command.addAll(jvmOptions);
        command.addAll(
                List.of("--module-path", modulePath, "--module", "dev.cadastro.server/dev.cadastro.server.cli.Cli"));
        command.addAll(args);
        return command;
    }

    /**
     * A child {@code ./cadastro serve} over this index and database on a free loopback port, with
     * {@code heap} as its {@code -Xmx} and {@code flags} after the common ones, its standard output and
     * error written to {@code log} (read back with {@link #logOf}); for the kill tests.
     */
    public static Process startServe(String heap, Path index, String databaseUrl, Path log, List<String> flags)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "serve", "--index", index.toString(), "--database", databaseUrl, "--port", "0", "--bind", "127.0.0.1"));
        args.addAll(flags);
        return new ProcessBuilder(javaCommand(List.of("-Xmx" + heap, "--add-modules", "ALL-MODULE-PATH"), args))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** What a child wrote to its log so far, or why it cannot be read. */
    public static String logOf(Path log) {
        try {
            return java.nio.file.Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }

    public static Run process(String... args) {
        return process(javaCommand(List.of(args)));
    }

    /** Runs a whole command (a shell line, say) and waits for it, two minutes at most. */
    public static Run process(List<String> command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().put("LC_ALL", "C.UTF-8");
            Path out = java.nio.file.Files.createTempFile("cli-out", ".txt");
            Path err = java.nio.file.Files.createTempFile("cli-err", ".txt");
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            Run run = new Run(
                    p.exitValue(),
                    java.nio.file.Files.readString(out, StandardCharsets.UTF_8),
                    java.nio.file.Files.readString(err, StandardCharsets.UTF_8));
            java.nio.file.Files.delete(out);
            java.nio.file.Files.delete(err);
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
