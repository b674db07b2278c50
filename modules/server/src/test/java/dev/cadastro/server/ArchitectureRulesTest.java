package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout rules of CONTRIBUTING.md, read from the sources (ADR 0043): the core's main code speaks
 * the domain (it names no HTTP header, no HTTP status, no SQL, nothing of Lucene, JSON or {@code
 * java.nio.file}), and no adapter module requires another adapter module.
 *
 * <p>Which module is what, decided here and in the ADR: {@value #CORE} is the core; {@link
 * #COMPOSITION_ROOTS} wire the others and may require anything; every other module is an adapter
 * (so a new module is an adapter until said otherwise). The HTTP edge is one adapter in three modules
 * ({@link #HTTP_EDGE}): the handler model ({@code http}), the servlet bridge and the Jetty runtime that
 * mounts it, which may require each other in that order.
 *
 * <p>{@link #KNOWN} lists what is still there on main, each with the branch that removes it; the lead
 * empties it as those merge, and an entry that no longer matches anything fails the test too.
 */
class ArchitectureRulesTest {
    static final String CORE = "dev.cadastro.core";

    static final Set<String> COMPOSITION_ROOTS = Set.of("dev.cadastro.server", "dev.cadastro.benchmarks");

    /** Modules of one adapter, each allowed to require the ones before it. */
    static final List<String> HTTP_EDGE = List.of("dev.cadastro.http", "dev.cadastro.servlet", "dev.cadastro.jetty");

    /**
     * Today's remaining violations: a finding's key (see {@link Finding#key()}) and who removes it. Empty
     * this as the branches merge; never add to it to make a new violation pass.
     */
    static final Map<String, String> KNOWN = Map.ofEntries();

    /** Header names a request or response of ours carries, or that HTTP itself defines. */
    static final Set<String> HTTP_HEADERS = Set.of(
            "accept",
            "accept-language",
            "authorization",
            "cache-control",
            "connection",
            "content-disposition",
            "content-encoding",
            "content-length",
            "content-type",
            "etag",
            "expect",
            "host",
            "idempotency-key",
            "if-none-match",
            "keep-alive",
            "location",
            "retry-after",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
            "webhook-id",
            "webhook-signature",
            "webhook-timestamp",
            "x-api-key",
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
            "x-request-id");

    private static final Pattern STATUS_NUMBER = Pattern.compile("\\b[1-5][0-9]{2}\\b");
    private static final Pattern SQL = Pattern.compile(
            "\\b(SELECT\\s.+\\sFROM|INSERT\\s+INTO|UPDATE\\s+\\w+\\s+SET|DELETE\\s+FROM|CREATE\\s+(TABLE|INDEX)|ALTER\\s+TABLE)\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern REQUIRES =
            Pattern.compile("\\brequires\\s+(?:(?:transitive|static)\\s+)*([\\w.]+)\\s*;");
    private static final Pattern MODULE = Pattern.compile("\\bmodule\\s+([\\w.]+)\\s*\\{");

    /** One breach of a rule, in a file or a module graph arrow. */
    record Finding(String rule, String where, String detail) {
        String key() {
            return rule + " " + where;
        }
    }

    @Test
    void theCoreSpeaksTheDomain() throws IOException {
        Path sources = RepositoryFiles.root().resolve("modules/core/src/main/java");
        List<Finding> findings = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String relative = sources.relativize(file).toString().replace('\\', '/');
                findings.addAll(coreFindings(relative, Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
        assertOnlyKnown(findings, "core");
    }

    @Test
    void noAdapterRequiresAnotherAdapter() throws IOException {
        Map<String, Set<String>> graph = modules(RepositoryFiles.root());
        assertTrue(
                graph.containsKey(CORE) && graph.containsKey("dev.cadastro.server"),
                graph.keySet().toString());
        assertEquals(Set.of(), graph.get(CORE), "the core requires the JDK alone");
        assertOnlyKnown(moduleFindings(graph), "module graph");
    }

    /** The scanner itself catches each kind of breach, in code and never in comments. */
    @Test
    void catchesPlantedViolations() {
        String planted = """
                package dev.cadastro.core.x;

                import java.nio.file.Path;
                import org.apache.lucene.index.Term;
                import com.fasterxml.jackson.core.JsonFactory;

                /** A comment may say Authorization, status 404, SELECT a FROM b and java.nio.file. */
                final class Planted {
                    static final String KEY = "X-API-Key";
                    static final String Q = "SELECT id FROM empresas WHERE cnpj = ?";
                    int status() { return outcome.status().orElse(200); }
                    // status 503 in a comment is fine
                }
                """;
        Set<String> rules = new TreeSet<>();
        coreFindings("dev/cadastro/core/x/Planted.java", planted).forEach(f -> rules.add(f.rule()));
        assertEquals(Set.of("http-header", "http-status", "sql", "lucene", "json", "java.nio.file"), rules);

        String clean = """
                package dev.cadastro.core.x;
                /** Says Authorization and 404 and SELECT x FROM y and JSON in prose only. */
                final class Clean {
                    static final String LIMIT = "limite 500 exceeds the maximum 200";
                    int max = 200;
                }
                """;
        assertEquals(List.of(), coreFindings("dev/cadastro/core/x/Clean.java", clean));

        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put(CORE, Set.of());
        graph.put("dev.cadastro.register", Set.of(CORE));
        graph.put("dev.cadastro.store", Set.of(CORE, "dev.cadastro.register"));
        graph.put("dev.cadastro.jetty", Set.of(CORE, "dev.cadastro.http", "dev.cadastro.servlet"));
        graph.put("dev.cadastro.http", Set.of(CORE, "dev.cadastro.jetty"));
        graph.put("dev.cadastro.server", Set.of(CORE, "dev.cadastro.store", "dev.cadastro.jetty"));
        assertEquals(
                List.of(
                        "requires dev.cadastro.http -> dev.cadastro.jetty",
                        "requires dev.cadastro.store -> dev.cadastro.register"),
                moduleFindings(graph).stream().map(Finding::key).sorted().toList());
    }

    private static void assertOnlyKnown(List<Finding> findings, String what) {
        Set<String> unexpected = new TreeSet<>();
        Set<String> seen = new TreeSet<>();
        for (Finding f : findings) {
            if (KNOWN.containsKey(f.key())) {
                seen.add(f.key());
            } else {
                unexpected.add(f.key() + ": " + f.detail());
            }
        }
        assertTrue(
                unexpected.isEmpty(), what + " breaks the layout rules (ADR 0043):\n" + String.join("\n", unexpected));
        Set<String> stale = new TreeSet<>();
        for (String known : KNOWN.keySet()) {
            boolean mine = what.equals("core") != known.startsWith("requires ");
            if (mine && !seen.contains(known)) {
                stale.add(known + " (" + KNOWN.get(known) + ")");
            }
        }
        assertFalse(
                !stale.isEmpty(), "fixed, so remove from ArchitectureRulesTest.KNOWN:\n" + String.join("\n", stale));
    }

    /** What a core source file names that the core must not. */
    static List<Finding> coreFindings(String relative, String source) {
        Lexed lexed = Lexed.of(source);
        List<Finding> findings = new ArrayList<>();
        for (String literal : lexed.strings()) {
            String lower = literal.strip().toLowerCase(Locale.ROOT);
            if (HTTP_HEADERS.contains(lower) || lower.startsWith("x-ratelimit-")) {
                findings.add(new Finding("http-header", relative, "\"" + literal + "\""));
            }
            if (SQL.matcher(literal).find()) {
                findings.add(new Finding("sql", relative, "\"" + abbreviated(literal) + "\""));
            }
        }
        String code = lexed.code();
        for (String statement : code.split(";|\\{|\\}")) {
            if (statement.toLowerCase(Locale.ROOT).contains("status")) {
                Matcher m = STATUS_NUMBER.matcher(statement);
                if (m.find()) {
                    findings.add(new Finding("http-status", relative, abbreviated(statement.strip())));
                }
            }
        }
        if (code.contains("org.apache.lucene")) {
            findings.add(new Finding("lucene", relative, "org.apache.lucene"));
        }
        if (code.contains("java.sql") || code.contains("javax.sql")) {
            findings.add(new Finding("sql", relative, "java.sql"));
        }
        for (String json :
                List.of("com.fasterxml.jackson", "jakarta.json", "javax.json", "org.json", "com.google.gson")) {
            if (code.contains(json)) {
                findings.add(new Finding("json", relative, json));
            }
        }
        if (code.contains("java.nio.file")) {
            findings.add(new Finding("java.nio.file", relative, "java.nio.file"));
        }
        return findings;
    }

    /** Every requires from an adapter to another adapter outside its own family's order. */
    static List<Finding> moduleFindings(Map<String, Set<String>> graph) {
        List<Finding> findings = new ArrayList<>();
        graph.forEach((module, requires) -> {
            if (!isAdapter(module)) {
                return;
            }
            for (String required : requires) {
                if (graph.containsKey(required) && isAdapter(required) && !sameAdapter(module, required)) {
                    findings.add(new Finding("requires", module + " -> " + required, "an adapter requires an adapter"));
                }
            }
        });
        return findings;
    }

    private static boolean isAdapter(String module) {
        return !module.equals(CORE) && !COMPOSITION_ROOTS.contains(module);
    }

    private static boolean sameAdapter(String module, String required) {
        int from = HTTP_EDGE.indexOf(module);
        int to = HTTP_EDGE.indexOf(required);
        return from >= 0 && to >= 0 && to < from;
    }

    /** Module name to the modules it requires, from every module-info.java outside build output. */
    static Map<String, Set<String>> modules(Path root) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.getFileName().toString().equals("module-info.java"))
                    .filter(f ->
                            !f.toString().contains("/target/") && !f.toString().contains("/src/test/"))
                    .filter(f -> !root.relativize(f).toString().startsWith("."))
                    .toList()) {
                String code =
                        Lexed.of(Files.readString(file, StandardCharsets.UTF_8)).code();
                Matcher name = MODULE.matcher(code);
                assertTrue(name.find(), "no module declaration in " + file);
                Set<String> requires = new TreeSet<>();
                Matcher r = REQUIRES.matcher(code);
                while (r.find()) {
                    requires.add(r.group(1));
                }
                graph.put(name.group(1), requires);
            }
        }
        return graph;
    }

    private static String abbreviated(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() <= 100 ? one : one.substring(0, 100) + "...";
    }

    /** A source's code without comments and string contents, and its string literals apart. */
    record Lexed(String code, List<String> strings) {
        static Lexed of(String source) {
            StringBuilder code = new StringBuilder(source.length());
            List<String> strings = new ArrayList<>();
            int i = 0;
            int n = source.length();
            while (i < n) {
                char c = source.charAt(i);
                if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                    while (i < n && source.charAt(i) != '\n') {
                        i++;
                    }
                } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                    int end = source.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 2;
                    code.append(' ');
                } else if (source.startsWith("\"\"\"", i)) {
                    int end = source.indexOf("\"\"\"", i + 3);
                    end = end < 0 ? n : end;
                    strings.add(source.substring(i + 3, end));
                    code.append("\"\"");
                    i = Math.min(n, end + 3);
                } else if (c == '"' || c == '\'') {
                    StringBuilder literal = new StringBuilder();
                    int j = i + 1;
                    while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                        if (source.charAt(j) == '\\' && j + 1 < n) {
                            literal.append(source.charAt(j + 1));
                            j += 2;
                        } else {
                            literal.append(source.charAt(j));
                            j++;
                        }
                    }
                    if (c == '"') {
                        strings.add(literal.toString());
                    }
                    code.append(c).append(c);
                    i = j + 1;
                } else {
                    code.append(c);
                    i++;
                }
            }
            return new Lexed(code.toString(), strings);
        }
    }
}
