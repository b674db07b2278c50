package dev.cadastro.server;

import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.LoadSummary;
import dev.cadastro.loader.LoaderException;
import dev.cadastro.loader.StructuralFaultException;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.register.RegisterIndexBuilder;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Loads a monthly dump into a new generation of the register index and publishes it: the structure is
 * checked and the lookup tables read first, the establishments are built beside the serving index
 * (the register's staging directory) with the partner structure of the Socios files beside them, and
 * only a complete read is published, atomically, after the
 * register verified the document count and checksum. Any failure (a structural fault, a crash, a kill)
 * leaves the previously published index serving, complete.
 *
 * <p>The join of the two adapters, so it lives here, where they are wired: the loader module reads the
 * dump and knows nothing of the register, the register indexes establishments and knows nothing of dumps.
 */
public final class DumpLoader {
    private static final System.Logger LOG = System.getLogger(DumpLoader.class.getName());

    /** The end of the source label of a generation loaded with PGFN debt files. */
    private static final String WITH_DEBT = " with PGFN debt";

    private DumpLoader() {}

    /** Whether {@code generation} was published with PGFN debt data (its metadata says so). */
    public static boolean loadedWithDebt(PublishedIndex generation) {
        return generation.debtData();
    }

    /** The result of a load: what was read and what was published. */
    public record Result(LoadSummary summary, PublishedIndex published) {}

    /**
     * Loads {@code options.dump()} into the register index under {@code indexRoot}.
     *
     * @throws StructuralFaultException when the dump is unusable; nothing is published
     * @throws LoaderException when the index could not be written; nothing is published
     */
    public static Result load(LoadOptions options, Path indexRoot, BuildOptions buildOptions) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(indexRoot, "indexRoot");
        DumpReader reader = DumpReader.open(options);
        try (RegisterIndexBuilder builder = RegisterIndexBuilder.create(indexRoot, reader.lookups(), buildOptions)) {
            LoadSummary summary = reader.readInto(builder::add, builder::addPartners);
            if (builder.added() != summary.establishments()) {
                throw new LoaderException("the index received " + builder.added()
                        + " establishments, the reader handed " + summary.establishments() + "; not published");
            }
            long partners = summary.families().get("Socios").loaded();
            if (builder.partnersAdded() != partners) {
                throw new LoaderException("the index received " + builder.partnersAdded()
                        + " partner rows, the reader loaded " + partners + "; not published");
            }
            String label = "Receita Federal dump " + reader.dateCode() + " ("
                    + options.dump().toAbsolutePath().normalize() + ")"
                    + (summary.debt() == null ? "" : WITH_DEBT);
            long publishStart = System.nanoTime();
            PublishedIndex published = builder.publish(label, summary.debt() != null, options.reference());
            // The publication (a merge into at most N segments, the checks, the precomputed counts and the
            // CNPJ map) is part of the load: at 70 M a merge into four segments takes minutes.
            java.time.Duration publishing = java.time.Duration.ofNanos(System.nanoTime() - publishStart);
            LOG.log(
                    System.Logger.Level.INFO,
                    "published {0} establishments at {1}",
                    published.documents(),
                    published.path());
            LoadSummary done = new LoadSummary(
                    summary.dateCode(),
                    summary.families(),
                    summary.notes(),
                    summary.establishments(),
                    summary.elapsed().plus(publishing),
                    summary.rejectsFile(),
                    "generation " + published.generation() + " at " + published.path() + ", " + published.documents()
                            + " documents, " + partners + " partner rows, reference month "
                            + published.referenceMonth().map(Object::toString).orElse("none")
                            + ", publication " + LoadSummary.format(publishing) + " of the load"
                            + builder.changes()
                                    .map(c -> String.format(
                                            java.util.Locale.ROOT,
                                            ", changes against the previous generation: %,d (%,d bytes, %,d CNPJs"
                                                    + " removed) in %s of it",
                                            c.entries(),
                                            c.bytes(),
                                            c.removed(),
                                            LoadSummary.format(c.elapsed())))
                                    .orElse(""),
                    summary.debt());
            return new Result(done, published);
        }
    }

    /** Build options suited to a load with these loader options: one indexing thread per loader index thread. */
    public static BuildOptions buildOptionsFor(LoadOptions options, long expectedCount) {
        return BuildOptions.builder()
                .indexingThreads(options.indexThreads())
                .expectedCount(expectedCount)
                .build();
    }
}
