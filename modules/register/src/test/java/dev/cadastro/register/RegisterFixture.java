package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** A generated register: the rows in memory and a published index of them in a temporary root. */
final class RegisterFixture implements AutoCloseable {
    final Path root;
    final List<Establishment> rows;
    /** The rows by CNPJ (the last of duplicates, as the index keeps it). */
    final Map<String, Establishment> byCnpj;

    final SyntheticRegister generator;
    final PublishedIndex published;

    private RegisterFixture(
            Path root, List<Establishment> rows, SyntheticRegister generator, PublishedIndex published) {
        this.root = root;
        this.rows = rows;
        this.byCnpj = new HashMap<>();
        for (Establishment e : rows) {
            byCnpj.put(e.cnpj().value(), e);
        }
        this.generator = generator;
        this.published = published;
    }

    /** One segment (forced), so results come in the global (uf, municipio, cnpj) order. */
    static RegisterFixture build(int count, long seed) {
        return build(
                count,
                seed,
                BuildOptions.builder()
                        .indexingThreads(2)
                        .ramBufferMb(64)
                        .maxSegments(1)
                        .build(),
                1);
    }

    /**
     * Segments as built (the loader's default): rows added from {@code threads} threads with a small RAM
     * buffer, so the generation has several segments.
     */
    static RegisterFixture buildSegmented(int count, long seed, int threads) {
        // Whether the threads' rows land in one writer buffer or several depends on how the threads
        // interleave (one thread may finish before the other starts on a busy machine), so a build that
        // came out as one segment is made again: the callers test what several segments do.
        for (int attempt = 1; ; attempt++) {
            RegisterFixture f = build(
                    count,
                    seed,
                    BuildOptions.builder()
                            .indexingThreads(threads)
                            .ramBufferMb(16)
                            .build(),
                    threads);
            if (f.segments() >= 2 || attempt == 5) {
                return f;
            }
            f.close();
        }
    }

    static RegisterFixture build(int count, long seed, BuildOptions options, int threads) {
        try {
            Path root = Files.createTempDirectory("register-fixture");
            SyntheticRegister g = new SyntheticRegister(seed);
            List<Establishment> rows = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                rows.add(g.next());
            }
            try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
                if (threads == 1) {
                    rows.forEach(b::add);
                } else {
                    List<Thread> adders = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int first = t;
                        adders.add(Thread.ofPlatform().start(() -> {
                            for (int i = first; i < rows.size(); i += threads) {
                                b.add(rows.get(i));
                            }
                        }));
                    }
                    for (Thread a : adders) {
                        a.join();
                    }
                }
                PublishedIndex p = b.publish("synthetic seed " + seed);
                return new RegisterFixture(root, rows, g, p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the fixture", e);
        }
    }

    /** The CNPJs of the rows that {@code q} matches, by the independent reference filter. */
    Set<String> matching(RegisterQuery q) {
        ReferenceFilter ref = new ReferenceFilter(q, SyntheticRegister.lookups());
        Set<String> out = new HashSet<>();
        for (Establishment e : rows) {
            if (ref.matches(e)) {
                out.add(e.cnpj().value());
            }
        }
        return out;
    }

    /** The index order of these rows' CNPJs: (uf, municipio, cnpj), by {@link #ESTABLISHMENT_ORDER}. */
    Comparator<String> indexOrder() {
        return Comparator.comparing(byCnpj::get, ESTABLISHMENT_ORDER);
    }

    /**
     * The documented result order, computed here without the production key: states alphabetically by
     * abbreviation with {@code EX} (abroad) after them, then the Receita municipality code as a number,
     * then the CNPJ (digits before letters, as in ASCII). Fails on a row outside that rule's domain (an
     * unknown state, a municipality code that is not four digits) rather than guessing its place.
     */
    static final Comparator<Establishment> ESTABLISHMENT_ORDER = Comparator.comparing(
                    (Establishment e) -> stateRank(e.uf()))
            .thenComparingInt(e -> municipalityNumber(e.municipio()))
            .thenComparing(e -> e.cnpj().value());

    private static String stateRank(String uf) {
        if (uf == null || !uf.matches("[A-Z]{2}")) {
            throw new IllegalArgumentException("no documented place for state " + uf);
        }
        return uf.equals("EX") ? "~" : uf;
    }

    private static int municipalityNumber(String code) {
        if (code == null || !code.matches("[0-9]{4}")) {
            throw new IllegalArgumentException("no documented place for municipality " + code);
        }
        return Integer.parseInt(code);
    }

    /**
     * The CNPJs of every page of {@code base} at {@code limite} per page, in page order, until a short
     * page; each page must state {@code total}, its number and its size.
     */
    static List<String> allPages(LuceneRegister register, RegisterQuery base, int limite, long total) {
        List<String> seen = new ArrayList<>();
        for (int pagina = 1; ; pagina++) {
            SearchResult page = register.search(
                    base.toBuilder().limite(limite).pagina(pagina).build());
            assertEquals(total, page.total());
            assertEquals(pagina, page.pagina());
            assertEquals(limite, page.limite());
            for (Empresa e : page.dados()) {
                seen.add(e.cnpj());
            }
            if (page.retornados() < limite) {
                return seen;
            }
        }
    }

    /** Segments of the published generation (one {@code .si} file each). */
    int segments() {
        try (var files = Files.list(published.path())) {
            return (int) files.filter(f -> f.getFileName().toString().endsWith(".si"))
                    .count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        deleteTree(root);
    }

    static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of a generation's folder, partner index included, in a new temporary folder. */
    static Path copyOf(Path generation) throws IOException {
        Path copy = Files.createTempDirectory("rollup-copy");
        // The whole tree: the generation's partner index is a folder of its own.
        try (Stream<Path> files = Files.walk(generation)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!p.equals(generation)) {
                    Files.copy(p, copy.resolve(generation.relativize(p).toString()));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return copy;
    }

    /** Flips one bit of the byte in the middle of {@code file}: a damaged file its checksum must catch. */
    static void flipMiddleByte(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(file, bytes);
    }
}
