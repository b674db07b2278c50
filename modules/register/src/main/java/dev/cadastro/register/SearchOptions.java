package dev.cadastro.register;

import java.time.Duration;

/**
 * How a {@link LuceneRegister} searches. Immutable; validated when built. The defaults suit a 70 M
 * establishment index; tests lower the thresholds to exercise estimation on small indexes.
 *
 * @param exactCostThreshold estimated work (documents decoded plus bitset words visited) up to which a
 *     count is always computed exactly; above it the count is estimated by window sampling when the
 *     sample is clearly cheaper than the exact pass, and still computed exactly when the estimate misses
 *     the precision target; 0 samples whenever there are enough strata (tests and benchmarks of the
 *     estimator)
 * @param estimateMinimum estimates below this are never returned: the count is computed exactly
 * @param maxRelativeHalfWidth largest accepted half-width of the 95% interval relative to the estimate
 *     (0.01 = +/-1%)
 * @param windowDocs documents per sampling window (a multiple of 64)
 * @param sampleEvery one window in this many is sampled (stratified: two random windows per stratum of
 *     {@code 2 * sampleEvery})
 * @param bitsetCacheMb heap for cached per-term bitsets of dense filter terms
 * @param refreshInterval how often {@code CURRENT} is checked for a newly published generation; zero:
 *     only on {@link LuceneRegister#refresh()}
 * @param seed seed of the sampling's random window choice (injected randomness, reproducible)
 * @param rollupCounts answer counts the generation's precomputed counts cover from them (exact, a few
 *     binary searches); false: every count goes through the engine (benchmarks and tests of the engine)
 */
public record SearchOptions(
        long exactCostThreshold,
        long estimateMinimum,
        double maxRelativeHalfWidth,
        int windowDocs,
        int sampleEvery,
        int bitsetCacheMb,
        Duration refreshInterval,
        long seed,
        boolean rollupCounts) {

    public SearchOptions {
        if (exactCostThreshold < 0) {
            throw new IllegalArgumentException("exactCostThreshold " + exactCostThreshold + " is negative");
        }
        if (estimateMinimum < 1) {
            throw new IllegalArgumentException("estimateMinimum " + estimateMinimum + " is below 1");
        }
        if (!(maxRelativeHalfWidth > 0 && maxRelativeHalfWidth < 1)) {
            throw new IllegalArgumentException("maxRelativeHalfWidth " + maxRelativeHalfWidth + " is outside (0, 1)");
        }
        if (windowDocs < 64 || windowDocs % 64 != 0 || windowDocs > 1 << 20) {
            throw new IllegalArgumentException(
                    "windowDocs " + windowDocs + " must be a multiple of 64 between 64 and 1048576");
        }
        if (sampleEvery < 2 || sampleEvery > 1024) {
            throw new IllegalArgumentException("sampleEvery " + sampleEvery + " is outside 2..1024");
        }
        if (bitsetCacheMb < 0) {
            throw new IllegalArgumentException("bitsetCacheMb " + bitsetCacheMb + " is negative");
        }
        if (refreshInterval == null || refreshInterval.isNegative()) {
            throw new IllegalArgumentException("refreshInterval " + refreshInterval + " must be zero or positive");
        }
    }

    public static SearchOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private long exactCostThreshold = 4_000_000L;
        private long estimateMinimum = 10_000L;
        private double maxRelativeHalfWidth = 0.01;
        private int windowDocs = 4096;
        private int sampleEvery = 16;
        private int bitsetCacheMb = 512;
        private Duration refreshInterval = Duration.ofSeconds(10);
        private long seed = 0x5EEDL;
        private boolean rollupCounts = true;

        private Builder() {}

        public Builder exactCostThreshold(long value) {
            this.exactCostThreshold = value;
            return this;
        }

        public Builder estimateMinimum(long value) {
            this.estimateMinimum = value;
            return this;
        }

        public Builder maxRelativeHalfWidth(double value) {
            this.maxRelativeHalfWidth = value;
            return this;
        }

        public Builder windowDocs(int value) {
            this.windowDocs = value;
            return this;
        }

        public Builder sampleEvery(int value) {
            this.sampleEvery = value;
            return this;
        }

        public Builder bitsetCacheMb(int value) {
            this.bitsetCacheMb = value;
            return this;
        }

        public Builder refreshInterval(Duration value) {
            this.refreshInterval = value;
            return this;
        }

        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        public Builder rollupCounts(boolean value) {
            this.rollupCounts = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the option, the value and the allowed range */
        public SearchOptions build() {
            return new SearchOptions(
                    exactCostThreshold,
                    estimateMinimum,
                    maxRelativeHalfWidth,
                    windowDocs,
                    sampleEvery,
                    bitsetCacheMb,
                    refreshInterval,
                    seed,
                    rollupCounts);
        }
    }
}
