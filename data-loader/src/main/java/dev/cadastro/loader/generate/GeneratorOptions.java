package dev.cadastro.loader.generate;

import java.time.LocalDate;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@link DumpGenerator} writes. Immutable; validated by {@link Builder#build()}.
 *
 * @param establishments establishments to write (1 to 100 million)
 * @param seed the seed: the same options write byte-identical ZIPs
 * @param quirkRate share of rows that carry one of the real data's quirks (0 to 0.5; default 0.001)
 * @param alphanumericShare share of companies with an alphanumeric root (0 to 1; default 0.005)
 * @param extractionDate the dump's extraction date, written into every inner file name
 * @param threads writer threads; each writes its own parts (default: available processors, at most
 *     10)
 * @param compressionLevel Deflater level of the ZIPs (1 to 9; default 1, fast)
 * @param debtShare share of companies written as debtors into synthetic PGFN active-debt files in the
 *     dump's {@code debt/} folder (0 to 1; default 0.06; 0 writes no debt folder; docs/loader.md gives
 *     the basis)
 */
public record GeneratorOptions(
        long establishments,
        long seed,
        double quirkRate,
        double alphanumericShare,
        LocalDate extractionDate,
        int threads,
        int compressionLevel,
        double debtShare) {

    public static Builder builder(long establishments) {
        return new Builder(establishments);
    }

    /** {@code D60808}: D, the year's last digit, MMDD. */
    public String dateCode() {
        return String.format(
                Locale.ROOT,
                "D%d%02d%02d",
                extractionDate.getYear() % 10,
                extractionDate.getMonthValue(),
                extractionDate.getDayOfMonth());
    }

    /** Builder of {@link GeneratorOptions}. */
    public static final class Builder {
        private final long establishments;
        private long seed = 1;
        private double quirkRate = 0.001;
        private double alphanumericShare = 0.005;
        private LocalDate extractionDate = LocalDate.of(2026, 8, 8);
        private int threads = Math.min(10, Runtime.getRuntime().availableProcessors());
        private int compressionLevel = 1;
        private double debtShare = 0.06;

        private Builder(long establishments) {
            this.establishments = establishments;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder quirkRate(double quirkRate) {
            this.quirkRate = quirkRate;
            return this;
        }

        public Builder alphanumericShare(double share) {
            this.alphanumericShare = share;
            return this;
        }

        public Builder extractionDate(LocalDate date) {
            this.extractionDate = Objects.requireNonNull(date, "extractionDate");
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder compressionLevel(int level) {
            this.compressionLevel = level;
            return this;
        }

        public Builder debtShare(double share) {
            this.debtShare = share;
            return this;
        }

        /** @throws IllegalArgumentException naming the option, the value and the allowed range */
        public GeneratorOptions build() {
            if (establishments < 1 || establishments > 100_000_000) {
                throw new IllegalArgumentException(
                        "establishments " + establishments + " must be between 1 and 100000000");
            }
            if (!(quirkRate >= 0 && quirkRate <= 0.5)) {
                throw new IllegalArgumentException("quirkRate " + quirkRate + " must be between 0 and 0.5");
            }
            if (!(alphanumericShare >= 0 && alphanumericShare <= 1)) {
                throw new IllegalArgumentException(
                        "alphanumericShare " + alphanumericShare + " must be between 0 and 1");
            }
            if (threads < 1 || threads > 10) {
                throw new IllegalArgumentException("threads " + threads + " must be between 1 and 10");
            }
            if (compressionLevel < 1 || compressionLevel > 9) {
                throw new IllegalArgumentException("compressionLevel " + compressionLevel + " must be between 1 and 9");
            }
            if (!(debtShare >= 0 && debtShare <= 1)) {
                throw new IllegalArgumentException("debtShare " + debtShare + " must be between 0 and 1");
            }
            if (extractionDate.getYear() < 2000 || extractionDate.getYear() > 2099) {
                throw new IllegalArgumentException(
                        "extractionDate " + extractionDate + " must be in the years 2000 to 2099");
            }
            return new GeneratorOptions(
                    establishments,
                    seed,
                    quirkRate,
                    alphanumericShare,
                    extractionDate,
                    threads,
                    compressionLevel,
                    debtShare);
        }
    }
}
