package dev.cadastro.register;

import java.nio.file.Path;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Objects;
import java.util.Optional;

/**
 * A generation of the register index that was verified and published (named by {@code CURRENT}).
 *
 * @param path the generation's directory ({@code root/gen-<generation>})
 * @param generation increasing number of the generation under its root
 * @param documents establishments in the index (after duplicates were dropped)
 * @param checksum order-independent checksum over every document's CNPJ and record, computed
 *     while adding and re-checked on the committed index
 * @param sourceLabel what the generation was built from (for example the dump month)
 * @param publishedAt when it was published
 * @param debtData whether the records' {@code divida} flags are data (the loader read PGFN debt files);
 *     when false the register refuses a {@code divida} filter rather than answer a count it cannot know
 * @param referenceMonth the reference month of the dump it was loaded from ({@code 2026-11}); empty for
 *     a generation that recorded none (published before it was recorded, or built from another source)
 */
public record PublishedIndex(
        Path path,
        long generation,
        long documents,
        long checksum,
        String sourceLabel,
        Instant publishedAt,
        boolean debtData,
        Optional<YearMonth> referenceMonth) {

    public PublishedIndex {
        Objects.requireNonNull(referenceMonth, "referenceMonth");
    }

    /** A generation without a reference month. */
    public PublishedIndex(
            Path path,
            long generation,
            long documents,
            long checksum,
            String sourceLabel,
            Instant publishedAt,
            boolean debtData) {
        this(path, generation, documents, checksum, sourceLabel, publishedAt, debtData, Optional.empty());
    }
}
