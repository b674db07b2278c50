package dev.cadastro.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code benchmarks/README.md} names every benchmark: each class under {@code src/main/java} with a
 * {@code main} method or a JMH {@code @Benchmark} method appears in the README's table as {@code
 * `SimpleName`} on a row of its own, so a new benchmark cannot ship without its command.
 */
class BenchmarkListTest {
    private static final Pattern MAIN = Pattern.compile("\\bstatic\\s+void\\s+main\\s*\\(");
    private static final Pattern JMH = Pattern.compile("(?m)^\\s*@Benchmark\\s*$");

    @Test
    void theReadmeTableHasARowForEveryClassWithAMainOrABenchmarkMethod() throws IOException {
        TreeSet<String> runnable = runnableClasses();
        assertTrue(runnable.size() >= 16, "the scan found the benchmarks: " + runnable);
        List<String> rows = Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("| "))
                .toList();
        TreeSet<String> missing = new TreeSet<>();
        for (String name : runnable) {
            if (rows.stream().noneMatch(row -> row.contains("`" + name + "` ("))) {
                missing.add(name);
            }
        }
        assertEquals(new TreeSet<String>(), missing, "benchmarks missing from the README's table");
    }

    @Test
    void theScanRecognisesBothKindsOfEntryPoint() {
        assertTrue(MAIN.matcher("    public static void main(String[] args) {").find());
        assertTrue(JMH.matcher("class X {\n    @Benchmark\n    public long run() {")
                .find());
        assertTrue(!JMH.matcher("@BenchmarkMode(Mode.AverageTime)").find());
    }

    private static TreeSet<String> runnableClasses() throws IOException {
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file, StandardCharsets.UTF_8);
                if (MAIN.matcher(source).find() || JMH.matcher(source).find()) {
                    names.add(file.getFileName().toString().replace(".java", ""));
                }
            }
        }
        return names;
    }
}
