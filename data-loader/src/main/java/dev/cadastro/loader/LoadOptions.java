package dev.cadastro.loader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How to load one dump. Immutable; built and validated by {@link #builder(Path)}.
 *
 * @param dump the monthly dump folder (the 37 ZIPs)
 * @param debt optional folder of PGFN active-debt files (ZIPs or CSVs): the one given, else the dump's
 *     own {@value #DUMP_DEBT_FOLDER}/ folder when there is one ({@code ./cadastro generate} writes it);
 *     null for none, and the generation is then published without debt data
 * @param rejects the rejects file to write
 * @param scratch folder for the join's scratch files (unlinked as soon as they are opened)
 * @param indexThreads threads handing establishments to the sink, besides the reader (default: the
 *     available processors: the index writer costs several times what the reader does)
 * @param batchSize establishments per hand-off between the reader and the index threads
 * @param verifyUnread for a read without a partner sink ({@link DumpReader#readInto(EstablishmentSink)}):
 *     whether to read the Socios ZIPs through their CRC check anyway (a load always reads them)
 * @param progress receives a {@link Progress} every {@code progressInterval}
 * @param progressInterval how often progress is reported
 */
public record LoadOptions(
        Path dump,
        Path debt,
        Path rejects,
        Path scratch,
        int indexThreads,
        int batchSize,
        boolean verifyUnread,
        Consumer<Progress> progress,
        Duration progressInterval) {

    /** The folder inside a dump whose PGFN debt files a load reads when no other folder is given. */
    public static final String DUMP_DEBT_FOLDER = "debt";

    public static Builder builder(Path dump) {
        return new Builder(dump);
    }

    /** Builder of {@link LoadOptions}; {@link #build()} validates. */
    public static final class Builder {
        private final Path dump;
        private Path debt;
        private Path rejects;
        private Path scratch;
        private int indexThreads = Runtime.getRuntime().availableProcessors();
        private int batchSize = 512;
        private boolean verifyUnread = true;
        private Consumer<Progress> progress = p -> {};
        private Duration progressInterval = Duration.ofSeconds(1);

        private Builder(Path dump) {
            this.dump = Objects.requireNonNull(dump, "dump");
        }

        /** The folder of the PGFN debt files; null (the default) takes the dump's {@code debt/} when present. */
        public Builder debt(Path debt) {
            this.debt = debt;
            return this;
        }

        /** Default: {@code <dump>.rejects.tsv} beside the dump folder. */
        public Builder rejects(Path rejects) {
            this.rejects = rejects;
            return this;
        }

        public Builder scratch(Path scratch) {
            this.scratch = scratch;
            return this;
        }

        public Builder indexThreads(int indexThreads) {
            this.indexThreads = indexThreads;
            return this;
        }

        public Builder batchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        public Builder verifyUnread(boolean verifyUnread) {
            this.verifyUnread = verifyUnread;
            return this;
        }

        public Builder progress(Consumer<Progress> progress, Duration interval) {
            this.progress = Objects.requireNonNull(progress, "progress");
            this.progressInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        public LoadOptions build() {
            if (indexThreads < 1 || indexThreads > 64) {
                throw new IllegalArgumentException("indexThreads " + indexThreads + " must be between 1 and 64");
            }
            if (batchSize < 1 || batchSize > 100_000) {
                throw new IllegalArgumentException("batchSize " + batchSize + " must be between 1 and 100000");
            }
            if (progressInterval.isNegative() || progressInterval.isZero()) {
                throw new IllegalArgumentException("progressInterval " + progressInterval + " must be positive");
            }
            Path r = rejects != null
                    ? rejects
                    : dump.toAbsolutePath().resolveSibling(dump.getFileName() + ".rejects.tsv");
            Path s = scratch != null ? scratch : Path.of(System.getProperty("java.io.tmpdir"));
            Path inDump = dump.resolve(DUMP_DEBT_FOLDER);
            Path d = debt != null ? debt : Files.isDirectory(inDump) ? inDump : null;
            return new LoadOptions(dump, d, r, s, indexThreads, batchSize, verifyUnread, progress, progressInterval);
        }
    }
}
