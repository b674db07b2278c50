package dev.cadastro.server.cli;

import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.LoaderException;
import dev.cadastro.loader.Progress;
import dev.cadastro.loader.StructuralFaultException;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import dev.cadastro.server.DumpLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./cadastro load}: loads a monthly dump into a new generation of the register index and
 * publishes it atomically. A progress bar on a terminal, a log line every ten seconds otherwise; the
 * summary at the end.
 */
@Command(
        name = "load",
        description = {
            "Load a Receita Federal dump into a new generation of a register index, published atomically"
                    + " when complete (the previous generation serves until then)."
        })
public final class LoadCommand extends CliCommand {
    @Option(names = "--dump", paramLabel = "DIR", required = true, description = "Folder of the dump's ZIPs.")
    String dump;

    @Option(names = "--index", paramLabel = "DIR", required = true, description = "The register index to publish into.")
    String index;

    @Option(
            names = "--publish",
            paramLabel = "s3://BUCKET/PREFIX|DIR",
            description = "After the load, publish the new generation there for servers that follow it (serve"
                    + " --index LOCATION --index-cache DIR): its files, then a manifest of their sizes, SHA-256 and"
                    + " part CRC32Cs,"
                    + " then the CURRENT pointer, last.")
    String publish;

    @Option(
            names = "--keep-generations",
            paramLabel = "N",
            description = "With --publish: generations kept in the store once the pointer moved, the new one"
                    + " included, 1 to 1000 (default " + PublishOptions.DEFAULT_KEEP_GENERATIONS + ").")
    Integer keepGenerations;

    @Option(
            names = "--allow-no-changes",
            description = "With --publish: when the store's current generation (the one the new month is compared"
                    + " with when the index holds none or an older one) cannot be fetched, verified or read, or"
                    + " the store's pointer cannot be read, load and publish without the month's changes instead"
                    + " of failing.")
    boolean allowNoChanges;

    /** Where --publish s3://... is ({@code --s3-endpoint}, {@code --s3-region}). */
    @Mixin
    ObjectStoreFlags objectStore;

    @Option(
            names = "--debt",
            paramLabel = "DIR",
            description = "Folder of the PGFN debt files (default: the dump's debt/ folder when there is one; without"
                    + " debt files, searches with divida are refused).")
    String debt;

    @Option(
            names = "--reference",
            paramLabel = "YYYY-MM",
            description = "The dump's reference month, answered in X-Dados-Referencia (default: the dump's"
                    + " referencia.txt, else the dump folder's name when it is YYYY-MM, as 2026-11; else none).")
    String reference;

    @Option(
            names = "--rejects",
            paramLabel = "FILE",
            description = "Where rejected rows are written (default: DUMP.rejects.tsv beside the dump).")
    String rejects;

    @Option(
            names = "--scratch",
            paramLabel = "DIR",
            description = "Folder for temporary files (default: the loader's).")
    String scratch;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Indexing threads, 1 to 64 (default: the loader's, from the cores).")
    Integer threads;

    @Option(
            names = "--ram-buffer-mb",
            paramLabel = "M",
            description = "Lucene's indexing buffer per writer in MB, 16 to 2048 (default: the builder's).")
    Integer ramBufferMb;

    @Option(
            names = "--segments",
            paramLabel = "N",
            description = "Merge down to at most N segments, 0 to 1024; 0 keeps them as built (default: "
                    + DEFAULT_SEGMENTS + "). 1 gives a global (uf, municipio, cnpj) order.")
    Integer segments;

    /**
     * The command line's default for {@code --segments}: at 70 M a generation as built has about 20
     * segments, and a selective page pays its term seeks in each (a 3-match page 4x slower than on four);
     * merging into four cost two minutes of a quiet 70 M load (7m39s to 9m36s,
     * benchmarks/history/2026-11-24-register.md, "Register at 70 M merged into four segments").
     * The library's {@link BuildOptions} keeps 0 (as built).
     */
    static final int DEFAULT_SEGMENTS = 4;

    /** The most segments the new generation may have: {@code --segments}, else {@link #DEFAULT_SEGMENTS}. */
    int maxSegments() {
        return segments == null ? DEFAULT_SEGMENTS : (int) within("--segments", segments, 0, 1024);
    }

    @Override
    public Integer call() {
        PrintStream err = err();
        Path dumpDir = path("--dump", dump);
        Path indexDir = path("--index", index);
        PublishOptions publishOptions = publishOptions();
        PublishedRegister target =
                publish == null ? null : PublishedRegister.open("--publish", publish, objectStore, this::usage);
        boolean terminal = isTerminal();
        LoadOptions.Builder builder = LoadOptions.builder(dumpDir)
                .debt(path("--debt", debt))
                .rejects(path("--rejects", rejects))
                .scratch(path("--scratch", scratch))
                .progress(
                        terminal ? bar(err) : logLine(err), terminal ? Duration.ofMillis(500) : Duration.ofSeconds(10));
        if (reference != null) {
            try {
                builder.reference(LoadOptions.month(reference, "--reference"));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        if (threads != null) {
            builder.indexThreads((int) within("--threads", threads, 1, 64));
        }
        LoadOptions options;
        try {
            options = builder.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        BuildOptions.Builder build = BuildOptions.builder().indexingThreads(options.indexThreads());
        if (ramBufferMb != null) {
            build.ramBufferMb((int) within("--ram-buffer-mb", ramBufferMb, 16, 2048));
        }
        build.maxSegments(maxSegments());
        Previous previous = previousGeneration(indexDir, target, err);
        if (previous == null) {
            target.close();
            return Cli.FAILURE;
        }
        out().println(previous.line());
        build.compareWithCurrent(previous.compare());
        try {
            DumpLoader.Result result = DumpLoader.load(options, indexDir, build.build());
            if (terminal) {
                err.println();
            }
            out().print(result.summary().render());
            if (target == null) {
                return Cli.DONE;
            }
            try (target) {
                return publish(indexDir, target, publishOptions, err);
            }
        } catch (StructuralFaultException e) {
            if (terminal) {
                err.println();
            }
            err.println("cadastro load: the dump is unusable, nothing was published: " + Cli.oneLine(e));
            return Cli.FAILURE;
        } catch (LoaderException e) {
            if (terminal) {
                err.println();
            }
            err.println("cadastro load: the load failed, nothing was published: " + Cli.oneLine(e));
            return Cli.FAILURE;
        }
    }

    /**
     * Finds the generation the new one is compared with (its changes, {@code changes.bin}): the index's
     * current one; with {@code --publish}, the store's current one when the index has none or an older one
     * (ADR 0056), fetched into the index and verified as a server following the store verifies it, so a
     * builder that starts each month from an empty folder still publishes the month's changes. Returns the
     * line saying where it came from and whether to compare with it ({@code --allow-no-changes} after a
     * failed fetch: no), or null when the load must not run (the reason printed).
     */
    private Previous previousGeneration(Path indexDir, PublishedRegister target, PrintStream err) {
        Optional<PublishedIndex> local;
        try {
            local = LuceneRegister.currentGeneration(indexDir);
        } catch (RuntimeException e) {
            // The builder warns and publishes without changes, as it always did for an unreadable local one.
            return Previous.compared("previous generation: the one " + indexDir + " names, which cannot be read ("
                    + Cli.oneLine(e) + "): no changes against it");
        }
        Optional<Previous> own = local.map(
                g -> Previous.compared("previous generation: " + g.path().getFileName() + " of " + indexDir));
        if (target == null) {
            return own.orElse(Previous.compared(
                    "previous generation: none in " + indexDir + " (no changes: the first generation)"));
        }
        Optional<Long> published = Optional.empty();
        try {
            published = IndexFollower.publishedGeneration(target.store(), target.prefix());
            if (local.isPresent()
                    && published.map(g -> g <= local.get().generation()).orElse(true)) {
                return own.get();
            }
            // Nothing here, or the store's is newer than this root's (another builder published since): the
            // month is compared with what the fleet serves.
            if (published.isEmpty()) {
                return Previous.compared("previous generation: none in " + indexDir + " nor at " + target.name()
                        + " (no changes: the first generation)");
            }
            IndexFollower.Round round = IndexFollower.fetchCurrent(
                            indexDir,
                            target.store(),
                            target.prefix(),
                            FollowOptions.defaults().withPoll(Duration.ZERO))
                    .orElseThrow(() -> new IOException("the store's pointer moved away while it was read"));
            return Previous.compared(String.format(
                    Locale.ROOT,
                    "previous generation: generation %d fetched from %s into %s (%d files, %,d bytes, %,d read"
                            + " from the store, every part verified) in %.1fs",
                    round.generation(),
                    target.name(),
                    LuceneRegister.currentGeneration(indexDir)
                            .map(PublishedIndex::path)
                            .orElse(indexDir),
                    round.files(),
                    round.bytes(),
                    round.fetched(),
                    round.took().toNanos() / 1e9));
        } catch (IOException | RuntimeException e) {
            String which = published.map(g -> "generation " + g).orElse("the current generation");
            if (allowNoChanges) {
                err.println("cadastro load: " + which + " published at " + target.name()
                        + " cannot be fetched or read; --allow-no-changes: the new generation is published without"
                        + " its changes: " + Cli.oneLine(e));
                discardDownloads(indexDir, err);
                // Not compared with the folder's own generation either, when it has one: it is not what the
                // fleet serves.
                return new Previous(
                        "previous generation: none (" + which + " at " + target.name()
                                + " could not be fetched; --allow-no-changes: no changes this month)",
                        false);
            }
            err.println("cadastro load: " + which + " published at " + target.name()
                    + ", the previous generation the new one is compared with, could not be fetched into "
                    + indexDir + "; nothing was loaded or published: " + Cli.oneLine(e)
                    + " (the parts verified so far are kept for the next attempt; --allow-no-changes publishes"
                    + " without the month's changes)");
            return null;
        }
    }

    /** Where the previous generation comes from (the load's first line), and whether to compare with it. */
    private record Previous(String line, boolean compare) {
        static Previous compared(String line) {
            return new Previous(line, true);
        }
    }

    /** Deletes what the failed fetch left, which no retry will want now that the month goes without it. */
    private static void discardDownloads(Path indexDir, PrintStream err) {
        try {
            IndexFollower.discardDownloads(indexDir);
        } catch (IOException | RuntimeException e) {
            err.println("cadastro load: the partial download under " + indexDir + " could not be deleted: "
                    + Cli.oneLine(e));
        }
    }

    private PublishOptions publishOptions() {
        if (publish == null) {
            objectStore.requireLocation(false, "--publish", this::usage);
            if (allowNoChanges) {
                throw usage("--allow-no-changes needs --publish (it concerns the previous generation a store holds)");
            }
            if (keepGenerations != null) {
                throw usage("--keep-generations needs --publish (it says how many published generations the store"
                        + " keeps)");
            }
            return null;
        }
        objectStore.requireLocation(PublishedRegister.isObjectStore(publish), "--publish", this::usage);
        return keepGenerations == null
                ? PublishOptions.defaults()
                : PublishOptions.defaults()
                        .withKeepGenerations((int) within("--keep-generations", keepGenerations, 1, 1000));
    }

    /** Uploads the generation just built; the local index keeps it whatever happens here. */
    private int publish(Path indexDir, PublishedRegister target, PublishOptions options, PrintStream err) {
        try {
            IndexPublisher.Publication p = IndexPublisher.publish(indexDir, target.store(), target.prefix(), options);
            double seconds = Math.max(1e-3, p.took().toNanos() / 1e9);
            out().println(String.format(
                    Locale.ROOT,
                    "  published to %s: generation %d, %d files, %,d bytes in %.1fs (%.1f MB/s); %s",
                    target.name(),
                    p.generation(),
                    p.files(),
                    p.bytes(),
                    seconds,
                    p.bytes() / seconds / 1e6,
                    p.deleted().isEmpty()
                            ? "no older generation deleted"
                            : "deleted generations " + p.deleted() + " (keeping " + options.keepGenerations() + ")"));
            return Cli.DONE;
        } catch (java.io.IOException | RuntimeException e) {
            err.println("cadastro load: the generation is published locally at " + indexDir
                    + " but publishing it to " + target.name() + " failed, the store's pointer did not move: "
                    + Cli.oneLine(e));
            return Cli.FAILURE;
        }
    }

    private static boolean isTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // JDK 22+ returns a console even when redirected; it then says whether it is a terminal.
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    private static Consumer<Progress> bar(PrintStream err) {
        return p -> {
            int width = 30;
            int filled = (int) Math.round(p.fraction() * width);
            err.print(String.format(
                    Locale.ROOT,
                    "\r[%s%s] %5.1f%%  %-16s %,12d est  %,9.0f est/s  ETA %s   ",
                    "#".repeat(filled),
                    ".".repeat(width - filled),
                    p.fraction() * 100,
                    p.phase(),
                    p.establishments(),
                    p.establishmentsPerSecond(),
                    eta(p)));
            err.flush();
        };
    }

    private static Consumer<Progress> logLine(PrintStream err) {
        return p -> err.println(String.format(
                Locale.ROOT,
                "cadastro load: %.1f%% %s, %,d establishments, %,.0f establishments/s, elapsed %s, ETA %s",
                p.fraction() * 100,
                p.phase(),
                p.establishments(),
                p.establishmentsPerSecond(),
                duration(p.elapsed()),
                eta(p)));
    }

    private static String eta(Progress p) {
        Duration eta = p.eta();
        return eta == null ? "--" : duration(eta);
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600
                ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s / 60) % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
}
