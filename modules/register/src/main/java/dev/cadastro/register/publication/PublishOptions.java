package dev.cadastro.register.publication;

/**
 * How {@link IndexPublisher} publishes. Immutable; validated when built.
 *
 * @param keepGenerations generations kept in the store after the pointer moves, the new one included
 *     (1 to 1000); older ones, and any left half-uploaded, are deleted
 * @param partSize bytes per checksummed part, the unit followers fetch in parallel and resume by (1 MiB
 *     to 1 GiB)
 * @param threads files uploaded at once (1 to 64)
 */
public record PublishOptions(int keepGenerations, int partSize, int threads) {
    public static final int DEFAULT_KEEP_GENERATIONS = 2;
    public static final int DEFAULT_PART_SIZE = 16 << 20;
    public static final int DEFAULT_THREADS = 4;

    public PublishOptions {
        if (keepGenerations < 1 || keepGenerations > 1000) {
            throw new IllegalArgumentException(
                    "keep-generations " + keepGenerations + " must be between 1 and 1000 (the new one counts)");
        }
        if (partSize < 1 << 20 || partSize > 1 << 30) {
            throw new IllegalArgumentException("part size " + partSize + " must be between 1 MiB and 1 GiB");
        }
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("upload threads " + threads + " must be between 1 and 64");
        }
    }

    public static PublishOptions defaults() {
        return new PublishOptions(DEFAULT_KEEP_GENERATIONS, DEFAULT_PART_SIZE, DEFAULT_THREADS);
    }

    public PublishOptions withKeepGenerations(int n) {
        return new PublishOptions(n, partSize, threads);
    }

    public PublishOptions withPartSize(int bytes) {
        return new PublishOptions(keepGenerations, bytes, threads);
    }

    public PublishOptions withThreads(int n) {
        return new PublishOptions(keepGenerations, partSize, n);
    }
}
