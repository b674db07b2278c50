package dev.cadastro.core.calls;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Objects;

/**
 * A place in the call feed's order ({@code ordem=disponibilidade}): oldest first by the moment the call
 * became listable or was last reclassified ({@code atualizado_em}, whole seconds), then by {@code id}
 * ascending in byte order. A feed cursor carries the last position a page returned; the next page starts
 * strictly after it.
 */
public record FeedPosition(Instant availableAt, String id) implements Comparable<FeedPosition> {
    /** The feed's order: the first element is the oldest. */
    public static final Comparator<FeedPosition> FEED_ORDER =
            Comparator.comparing(FeedPosition::availableAt).thenComparing(FeedPosition::id);

    public FeedPosition {
        Objects.requireNonNull(availableAt, "availableAt");
        Objects.requireNonNull(id, "id");
        availableAt = availableAt.truncatedTo(ChronoUnit.MICROS);
    }

    @Override
    public int compareTo(FeedPosition other) {
        return FEED_ORDER.compare(this, other);
    }
}
