package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository stands on its own: no document, comment, OpenAPI description or SQL file points at a
 * file outside it (a shared folder, an architecture or style brief, the original interface
 * specifications) or at a numbered section of a document the reader cannot open. The rules those
 * references carried live in {@code docs/rules.md} and the OpenAPI documents.
 */
class SelfContainedDocsTest {
    private static final Pattern OUTSIDE = Pattern.compile(
            "\\.\\./shared|/work/shared|\\bARCHITECTURE\\.md|\\bSTYLE\\.md|company-data-service\\.md"
                    + "|call-records-service\\.md|\\bspec(ification)?,? (section )?[0-9]+(\\.[0-9]+)?\\b"
                    + "|\\bsection [0-9]+(\\.[0-9]+)? of the (company-data |call-records )?spec"
                    + "|\\b(company-data|call-records) spec\\b|\\barchitecture brief\\b"
                    // A numbered section of either outside specification: "company-data 2.4, 3".
                    + "|(?<![\\w-])(company-data|call-records),? (sections? )?[0-9]+\\.[0-9]+\\b"
                    // A numbered rule of it: "(rule 4 allows fields)", "cost rule 2".
                    + "|\\(rules? [0-9]+\\b|\\b(cost|contract|spec) rules? [0-9]+\\b",
            Pattern.CASE_INSENSITIVE);

    /** Checked in text files of these kinds. */
    private static final Set<String> KINDS = Set.of(".md", ".java", ".json", ".sql", ".xml", ".properties");

    /**
     * An applied database migration keeps its comment: editing it would change the checksum every
     * existing database recorded.
     */
    private static final Set<String> FROZEN = Set.of(
            "modules/store/src/main/resources/db/migration/V6__credit_report_cache.sql",
            // Its first comment line names sections of the outside specification; Flyway checksums the
            // whole file, comments included, so the applied migration stays as it is.
            "modules/store/src/main/resources/db/migration/V8__person_lookup.sql");

    @Test
    void noFileReferencesADocumentOutsideTheRepository() throws IOException {
        Path root = RepositoryFiles.root();
        List<String> found = new ArrayList<>();
        int scanned = 0;
        for (Path file : files(root)) {
            String relative = root.relativize(file).toString().replace('\\', '/');
            if (skipped(relative)) {
                continue;
            }
            scanned++;
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Matcher m = OUTSIDE.matcher(text);
            while (m.find()) {
                long line = text.substring(0, m.start())
                                .chars()
                                .filter(c -> c == '\n')
                                .count()
                        + 1;
                found.add(relative + ":" + line + ": " + m.group());
            }
        }
        assertTrue(scanned > 300, "the walk found the repository's files: " + scanned);
        assertEquals(List.of(), found, "references to documents outside the repository");
    }

    @Test
    void thePatternCatchesTheReferencesItIsFor() {
        for (String bad : List.of(
                "see ../shared/ARCHITECTURE.md",
                "(spec 4.10-4.13)",
                "specification 2.4",
                "company-data spec, section 2.1",
                "section 4.1 of the company-data spec",
                "the architecture brief decides",
                "-- Person lookup (company-data 2.4, 3, 4.10-4.13)",
                "call-records 4.1",
                "one addition (rule 4 allows fields)",
                "company-data cost rule 2")) {
            assertTrue(OUTSIDE.matcher(bad).find(), bad);
        }
        for (String fine : List.of(
                "RFC 9110, section 5.5",
                "the Standard Webhooks specification",
                "FaultPlan.parse(spec)",
                "not the company-data 422",
                "cadastro-company-data 0.1.0-SNAPSHOT")) {
            assertTrue(!OUTSIDE.matcher(fine).find(), fine);
        }
    }

    /** Every file under the root, not descending into build output, hidden folders or benchmark data. */
    private static List<Path> files(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = !dir.equals(root)
                        && (name.equals("target")
                                || name.startsWith(".")
                                || dir.equals(root.resolve("benchmarks/data")));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                files.add(file);
                return FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    private static boolean skipped(String relative) {
        if (relative.startsWith(".git/") || relative.contains("/target/") || relative.startsWith("target/")) {
            return true;
        }
        if (relative.contains("/.") || relative.startsWith(".") || relative.startsWith("benchmarks/data/")) {
            return true;
        }
        if (FROZEN.contains(relative) || relative.endsWith("/SelfContainedDocsTest.java")) {
            return true;
        }
        int dot = relative.lastIndexOf('.');
        return dot < 0 || !KINDS.contains(relative.substring(dot));
    }
}
