package dev.cadastro.register.publication;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link IndexFollower} follows a published register. Immutable; validated when built.
 *
 * @param poll how often the store's pointer is read; zero: only when {@link IndexFollower#poll()} is
 *     called (tests, tools)
 * @param retry how soon a failed download is tried again (resuming; at most {@code poll} when polling)
 * @param parallelism ranged reads in flight at once, over several files and parts, while no generation is
 *     open yet (a bootstrap: as fast as the store allows; 1 to 64)
 * @param backgroundParallelism ranged reads in flight while a generation serves (a swap: the download
 *     shares the cores with the requests, so it takes fewer of them; 1 to 64)
 * @param attempts reads of one part before its download is given up for this round: a part whose
 *     CRC32C does not match is refused and read again (1 to 10)
 */
public record FollowOptions(Duration poll, Duration retry, int parallelism, int backgroundParallelism, int attempts) {
    public static final Duration DEFAULT_POLL = Duration.ofMinutes(1);
    public static final Duration DEFAULT_RETRY = Duration.ofSeconds(10);
    public static final int DEFAULT_PARALLELISM = 8;
    public static final int DEFAULT_BACKGROUND_PARALLELISM = 2;
    public static final int DEFAULT_ATTEMPTS = 3;

    public FollowOptions {
        Objects.requireNonNull(poll, "poll");
        Objects.requireNonNull(retry, "retry");
        if (poll.isNegative()) {
            throw new IllegalArgumentException("index poll " + poll + " must not be negative");
        }
        if (retry.isNegative() || retry.isZero()) {
            throw new IllegalArgumentException("index retry " + retry + " must be positive");
        }
        if (parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("download parallelism " + parallelism + " must be between 1 and 64");
        }
        if (backgroundParallelism < 1 || backgroundParallelism > 64) {
            throw new IllegalArgumentException(
                    "background download parallelism " + backgroundParallelism + " must be between 1 and 64");
        }
        if (attempts < 1 || attempts > 10) {
            throw new IllegalArgumentException("part attempts " + attempts + " must be between 1 and 10");
        }
    }

    public static FollowOptions defaults() {
        return new FollowOptions(
                DEFAULT_POLL, DEFAULT_RETRY, DEFAULT_PARALLELISM, DEFAULT_BACKGROUND_PARALLELISM, DEFAULT_ATTEMPTS);
    }

    public FollowOptions withPoll(Duration d) {
        return new FollowOptions(d, retry, parallelism, backgroundParallelism, attempts);
    }

    public FollowOptions withRetry(Duration d) {
        return new FollowOptions(poll, d, parallelism, backgroundParallelism, attempts);
    }

    public FollowOptions withParallelism(int n) {
        return new FollowOptions(poll, retry, n, backgroundParallelism, attempts);
    }

    public FollowOptions withBackgroundParallelism(int n) {
        return new FollowOptions(poll, retry, parallelism, n, attempts);
    }

    public FollowOptions withAttempts(int n) {
        return new FollowOptions(poll, retry, parallelism, backgroundParallelism, n);
    }
}
