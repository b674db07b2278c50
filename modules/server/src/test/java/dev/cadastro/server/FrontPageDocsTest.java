package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents stay a front page and a set of homes: the README small, with the two commands first
 * and short table cells; the current benchmark view small; every relative link in the Markdown
 * documents pointing at a file (and heading) that exists; every ADR in the ADR index.
 */
class FrontPageDocsTest {
    static final int README_MAX_BYTES = 12 * 1024;
    static final int RESULTS_MAX_BYTES = 40 * 1024;
    static final int CELL_MAX_CHARS = 300;

    private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```[^\\n]*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern ADR_FILE = Pattern.compile("\\d{4}-[a-z0-9-]+\\.md");

    private final Path root = RepositoryFiles.root();

    @Test
    void theReadmeIsAFrontPageWithTheTwoCommandsFirst() throws IOException {
        Path readme = root.resolve("README.md");
        long size = Files.size(readme);
        assertTrue(size <= README_MAX_BYTES, "README.md has " + size + " bytes, at most " + README_MAX_BYTES);
        List<String> first = Files.readAllLines(readme, StandardCharsets.UTF_8).subList(0, 8);
        String head = String.join("\n", first);
        assertTrue(head.contains("./cadastro demo"), "the first lines give ./cadastro demo:\n" + head);
        assertTrue(head.contains("./mvnw verify"), "the first lines give ./mvnw verify:\n" + head);
        assertEquals(List.of(), longCells(readme), "README table cells over " + CELL_MAX_CHARS + " characters");
    }

    @Test
    void theBenchmarkResultsAreACurrentViewWithTheirHistoryBeside() throws IOException {
        Path results = root.resolve("benchmarks/RESULTS.md");
        long size = Files.size(results);
        assertTrue(size <= RESULTS_MAX_BYTES, "RESULTS.md has " + size + " bytes, at most " + RESULTS_MAX_BYTES);
        assertEquals(List.of(), longCells(results), "RESULTS.md cells over " + CELL_MAX_CHARS + " characters");
        try (Stream<Path> history = Files.list(root.resolve("benchmarks/history"))) {
            assertTrue(
                    history.anyMatch(f -> f.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-.+\\.md")),
                    "benchmarks/history holds dated runs");
        }
    }

    @Test
    void everyRelativeLinkInTheDocumentsResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<Path> documents = documents();
        assertTrue(documents.size() > 40, "the walk found the documents: " + documents.size());
        for (Path document : documents) {
            String text = withoutCode(Files.readString(document, StandardCharsets.UTF_8));
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // https:, mailto: and the like
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = file.isEmpty()
                        ? document
                        : document.getParent()
                                .resolve(URLDecoder.decode(file, StandardCharsets.UTF_8))
                                .normalize();
                String where = root.relativize(document) + ": " + target;
                if (!resolved.startsWith(root) || !Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (anchor != null && resolved.toString().endsWith(".md")) {
                    Set<String> known = anchors.computeIfAbsent(resolved, FrontPageDocsTest::anchorsOf);
                    if (!known.contains(anchor)) {
                        broken.add(where + " (no such heading)");
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "broken relative links");
    }

    @Test
    void theAdrIndexListsEveryAdr() throws IOException {
        Path adrs = root.resolve("docs/adr");
        String index = Files.readString(adrs.resolve("README.md"), StandardCharsets.UTF_8);
        TreeSet<String> missing = new TreeSet<>();
        try (Stream<Path> files = Files.list(adrs)) {
            for (Path adr : files.toList()) {
                String name = adr.getFileName().toString();
                if (ADR_FILE.matcher(name).matches() && !index.contains("(" + name + ")")) {
                    missing.add(name);
                }
            }
        }
        assertTrue(index.contains("(0001-"), "the index links the ADRs by file name");
        assertEquals(new TreeSet<String>(), missing, "ADRs the index does not link");
    }

    @Test
    void anchorsAreGitHubsHeadingSlugs() {
        Set<String> anchors = anchorsIn("# The service rules: costs, limits\n## Person lookup (ADR 0024)\n"
                + "## `HEAD`\n## Mixed Case Heading\n## Mixed Case Heading\n```\n# not a heading\n```\n");
        assertEquals(
                Set.of(
                        "the-service-rules-costs-limits",
                        "person-lookup-adr-0024",
                        "head",
                        "mixed-case-heading",
                        "mixed-case-heading-1"),
                anchors);
    }

    /** Every Markdown document of the repository that a reader follows links in. */
    private List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>();
        for (String top : List.of("README.md", "CONTRIBUTING.md", "CHANGES.md")) {
            if (Files.exists(root.resolve(top))) {
                documents.add(root.resolve(top));
            }
        }
        for (String folder : List.of("docs", "benchmarks")) {
            try (Stream<Path> walk = Files.walk(root.resolve(folder))) {
                walk.filter(f -> f.toString().endsWith(".md"))
                        .filter(f -> !f.toString().contains("/target/")
                                && !f.toString().contains("/data/"))
                        .forEach(documents::add);
            }
        }
        return documents;
    }

    private static Set<String> anchorsOf(Path document) {
        try {
            return anchorsIn(Files.readString(document, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as '-'. */
    static Set<String> anchorsIn(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(FENCE.matcher(markdown).replaceAll(""));
        while (m.find()) {
            String slug = m.group(1)
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    private static String withoutCode(String markdown) {
        return CODE_SPAN.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("``");
    }

    /** Cells of Markdown tables longer than the bound, as "file:line: length". */
    private List<String> longCells(Path document) throws IOException {
        List<String> found = new ArrayList<>();
        List<String> lines = Files.readAllLines(document, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                continue;
            }
            for (String cell : line.split("(?<!\\\\)\\|")) {
                if (cell.strip().length() > CELL_MAX_CHARS) {
                    found.add(root.relativize(document) + ":" + (i + 1) + ": "
                            + cell.strip().length());
                }
            }
        }
        return found;
    }
}
