package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.Objects;

/**
 * A ready call as the feed gives it: its current state and its place in the feed.
 *
 * @param availableAt when the call became listable in this service, or was last reclassified: one whole
 *     second per ingest transaction, later than every position committed before it for the integration
 */
public record FeedEntry(CallRecord call, Instant availableAt) {
    public FeedEntry {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(availableAt, "availableAt");
    }

    public FeedPosition position() {
        return new FeedPosition(availableAt, call.id());
    }
}
