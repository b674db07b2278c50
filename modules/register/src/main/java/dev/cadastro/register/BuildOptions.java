package dev.cadastro.register;

/**
 * How a {@link RegisterIndexBuilder} writes a generation. Immutable; validated when built.
 *
 * @param ramBufferMb Lucene's indexing RAM buffer, in MB (16 to 2048; default 256)
 * @param indexingThreads threads the caller adds from, and the merge threads (1 to 64; default: the
 *     available processors)
 * @param forceMerge merge the generation into one segment before publishing (default true): searches
 *     are fastest on one segment, and the result order is then exactly (uf, municipio, cnpj)
 * @param expectedCount establishments the caller expects to add, for sizing; 0 when unknown
 */
public record BuildOptions(int ramBufferMb, int indexingThreads, boolean forceMerge, long expectedCount) {

    public BuildOptions {
        if (ramBufferMb < 16 || ramBufferMb > 2048) {
            throw new IllegalArgumentException("ramBufferMb " + ramBufferMb + " is outside 16..2048");
        }
        if (indexingThreads < 1 || indexingThreads > 64) {
            throw new IllegalArgumentException("indexingThreads " + indexingThreads + " is outside 1..64");
        }
        if (expectedCount < 0) {
            throw new IllegalArgumentException("expectedCount " + expectedCount + " is negative");
        }
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
        private boolean forceMerge = true;
        private long expectedCount;

        private Builder() {}

        public Builder ramBufferMb(int value) {
            this.ramBufferMb = value;
            return this;
        }

        public Builder indexingThreads(int value) {
            this.indexingThreads = value;
            return this;
        }

        public Builder forceMerge(boolean value) {
            this.forceMerge = value;
            return this;
        }

        public Builder expectedCount(long value) {
            this.expectedCount = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the option, the value and the allowed range */
        public BuildOptions build() {
            return new BuildOptions(ramBufferMb, indexingThreads, forceMerge, expectedCount);
        }
    }
}
