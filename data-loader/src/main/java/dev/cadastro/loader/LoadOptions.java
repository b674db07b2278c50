package dev.cadastro.loader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

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
 * @param reference the dump's reference month ({@code X-Dados-Referencia}): the one given, else the
 *     month in the dump's {@value #REFERENCE_FILE} ({@code ./cadastro generate} writes it), else the dump
 *     folder's name when it is a month as the Receita Federal names its folders ({@code 2026-11}); empty
 *     when none of them gives one
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
        Duration progressInterval,
        Optional<YearMonth> reference) {

    /** The file in a dump folder that names its reference month, {@code 2026-11} on one line. */
    public static final String REFERENCE_FILE = "referencia.txt";

    private static final Pattern MONTH = Pattern.compile("\\d{4}-\\d{2}");

    public LoadOptions {
        Objects.requireNonNull(reference, "reference");
    }

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
        private YearMonth reference;

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

        /** The dump's reference month; null (the default) reads it from the dump (see {@link LoadOptions}). */
        public Builder reference(YearMonth reference) {
            this.reference = reference;
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
            Optional<YearMonth> month = reference != null ? Optional.of(reference) : referenceOf(dump);
            return new LoadOptions(
                    dump, d, r, s, indexThreads, batchSize, verifyUnread, progress, progressInterval, month);
        }
    }

    /**
     * The reference month a dump folder states: its {@value #REFERENCE_FILE}, else its own name when that
     * is {@code YYYY-MM}.
     *
     * @throws IllegalArgumentException when {@value #REFERENCE_FILE} holds no month
     */
    public static Optional<YearMonth> referenceOf(Path dump) {
        Path file = dump.resolve(REFERENCE_FILE);
        if (Files.isRegularFile(file)) {
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            return Optional.of(month(text, file.toString()));
        }
        Path name = dump.toAbsolutePath().normalize().getFileName();
        if (name != null && MONTH.matcher(name.toString()).matches()) {
            return Optional.of(month(name.toString(), "the dump folder's name"));
        }
        return Optional.empty();
    }

    /**
     * Parses a reference month, {@code YYYY-MM}.
     *
     * @throws IllegalArgumentException naming where it came from
     */
    public static YearMonth month(String text, String where) {
        if (text != null && MONTH.matcher(text).matches()) {
            try {
                YearMonth m = YearMonth.parse(text);
                if (m.getYear() >= 1990 && m.getYear() <= 2999) {
                    return m;
                }
            } catch (DateTimeParseException e) {
                // falls through to the message below
            }
        }
        throw new IllegalArgumentException(
                where + " gives the reference month '" + text + "': expected YYYY-MM, such as 2026-11");
    }
}
