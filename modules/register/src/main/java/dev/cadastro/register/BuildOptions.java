package dev.cadastro.register;

/**
 * How a {@link RegisterIndexBuilder} writes a generation. Immutable; validated when built.
 *
 * @param ramBufferMb Lucene's indexing RAM buffer, in MB (16 to 2048; default 256)
 * @param indexingThreads threads the caller adds from, and the merge threads (1 to 64; default: the
 *     available processors)
 * @param maxSegments the most segments the published generation may have: 0 (default) publishes the
 *     segments as indexing and Lucene's background merges left them (a few to a few dozen; at 70 M a
 *     merge into one segment costs minutes); 1 merges into one segment, whose result order is then
 *     exactly (uf, municipio, cnpj) instead of (segment, uf, municipio, cnpj); n merges into at most n
 * @param expectedCount establishments the caller expects to add, for sizing; 0 when unknown
 * @param compareWithCurrent whether {@link RegisterIndexBuilder#publish} compares the new generation with
 *     the one current under the root and writes its changes (default true); false publishes it without
 *     changes, for a load whose operator accepted a month without them (the root's current generation is
 *     not the one the fleet serves)
 */
public record BuildOptions(
        int ramBufferMb, int indexingThreads, int maxSegments, long expectedCount, boolean compareWithCurrent) {

    public BuildOptions {
        if (ramBufferMb < 16 || ramBufferMb > 2048) {
            throw new IllegalArgumentException("ramBufferMb " + ramBufferMb + " is outside 16..2048");
        }
        if (indexingThreads < 1 || indexingThreads > 64) {
            throw new IllegalArgumentException("indexingThreads " + indexingThreads + " is outside 1..64");
        }
        if (maxSegments < 0 || maxSegments > 1024) {
            throw new IllegalArgumentException("maxSegments " + maxSegments + " is outside 0..1024");
        }
        if (expectedCount < 0) {
            throw new IllegalArgumentException("expectedCount " + expectedCount + " is negative");
        }
    }

    /** The options as before {@code compareWithCurrent} existed: compared with the current generation. */
    public BuildOptions(int ramBufferMb, int indexingThreads, int maxSegments, long expectedCount) {
        this(ramBufferMb, indexingThreads, maxSegments, expectedCount, true);
    }

    public static BuildOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private int ramBufferMb = 256;
        private int indexingThreads =
                Math.max(1, Math.min(64, Runtime.getRuntime().availableProcessors()));
        private int maxSegments;
        private long expectedCount;
        private boolean compareWithCurrent = true;

        private Builder() {}

        public Builder ramBufferMb(int value) {
            this.ramBufferMb = value;
            return this;
        }

        public Builder indexingThreads(int value) {
            this.indexingThreads = value;
            return this;
        }

        public Builder maxSegments(int value) {
            this.maxSegments = value;
            return this;
        }

        public Builder expectedCount(long value) {
            this.expectedCount = value;
            return this;
        }

        public Builder compareWithCurrent(boolean value) {
            this.compareWithCurrent = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the option, the value and the allowed range */
        public BuildOptions build() {
            return new BuildOptions(ramBufferMb, indexingThreads, maxSegments, expectedCount, compareWithCurrent);
        }
    }
}
