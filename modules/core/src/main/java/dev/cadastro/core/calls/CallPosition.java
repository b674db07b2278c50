package dev.cadastro.core.calls;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Objects;

/**
 * A place in the list's order: newest first by {@code classifiedAt}, then by {@code id} descending
 * (byte order of the id, as PostgreSQL compares it under the C collation). A cursor carries the last
 * position a page returned; the next page starts strictly after it.
 */
public record CallPosition(Instant classifiedAt, String id) implements Comparable<CallPosition> {
    /** The list's order: the first element is the newest. */
    public static final Comparator<CallPosition> LIST_ORDER = Comparator.comparing(CallPosition::classifiedAt)
            .thenComparing(CallPosition::id)
            .reversed();

    public CallPosition {
        Objects.requireNonNull(classifiedAt, "classifiedAt");
        Objects.requireNonNull(id, "id");
        classifiedAt = classifiedAt.truncatedTo(ChronoUnit.MICROS);
    }

    @Override
    public int compareTo(CallPosition other) {
        return LIST_ORDER.compare(this, other);
    }
}
