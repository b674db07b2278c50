package dev.cadastro.core.calls;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: where calls are kept. Each method is one transaction.
 *
 * <p>{@link #ingest} is idempotent by {@code (integrationId, id)} and writes the push outbox in the
 * same transaction as the calls' changes: a call that becomes ready (recording archived), or a ready
 * call reclassified while its integration's destination asks for resends, gets a delivery row, so
 * nothing ready is ever without its delivery even if the server dies right after the commit.
 */
public interface CallStore {

    /**
     * Inserts new calls and applies changes to known ones, in one transaction.
     *
     * <ul>
     *   <li>an unknown id is inserted as given;
     *   <li>a known id takes the incoming classification (result code, description and {@code
     *       classifiedAt}) only when the incoming {@code classifiedAt} is later than the stored one (a
     *       reclassification; an older or equal state is a repeat and changes nothing);
     *   <li>{@code archivedAt} is set once and never cleared; the other fields are the exchange's and
     *       are refreshed;
     *   <li>a delivery row ({@code pronta}) is written when a call becomes ready and its integration has
     *       a push destination; a {@code reclassificada} one when a ready call is reclassified and the
     *       destination resends reclassified calls;
     *   <li>a call that becomes ready, and a ready call reclassified, takes a new feed position ({@link
     *       FeedEntry#availableAt()}): the same for the whole transaction within one integration, and later
     *       than every position committed before it for that integration, assigned so that transactions of
     *       one integration commit in the order of their positions.
     * </ul>
     *
     * @throws dev.cadastro.core.error.InvalidParameterException when the store refuses a call's data that
     *     {@link CallIngest#check} let through (an integration that does not exist, say); nothing of the
     *     batch is written, and the caller may retry it call by call to find the refused one
     */
    IngestResult ingest(List<CallRecord> calls);

    /**
     * One page of an integration's ready calls ({@code archivedAt} set) with {@code classifiedAt} at or
     * after {@code windowStart}, matching {@code filter}, in {@link CallPosition#LIST_ORDER}, starting
     * strictly after {@code after} when given; at most {@code limit} calls.
     */
    List<CallRecord> page(
            long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit);

    /**
     * One page of the integration's call feed: ready calls with {@code classifiedAt} at or after {@code
     * windowStart}, matching the text filters of {@code filter} ({@code agent}, {@code queue}, {@code
     * result}; its {@code since} and {@code until} must be empty), with {@link FeedEntry#availableAt()} at
     * or after {@code availableSince} when given, in {@link FeedPosition#FEED_ORDER}, starting strictly
     * after {@code after} when given; at most {@code limit} calls.
     *
     * <p>What a page returns is final: no transaction that commits later can place a call at or before
     * the last position a reader has seen (see {@link #ingest}), so a reader that resumes after it never
     * misses a change.
     *
     * <p>The default refuses: a store that keeps no feed positions (a test's in-memory store) has no feed.
     */
    default List<FeedEntry> feed(
            long integrationId,
            CallFilter filter,
            Optional<Instant> availableSince,
            Optional<FeedPosition> after,
            Instant windowStart,
            int limit) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no feed positions");
    }

    /** The integration's call with this id, ready or not, however old. */
    Optional<CallRecord> find(long integrationId, String id);

    /** What one {@link #ingest} did. */
    record IngestResult(int inserted, int reclassified, int archived, int unchanged, int deliveriesQueued) {
        public static final IngestResult NOTHING = new IngestResult(0, 0, 0, 0, 0);

        public IngestResult plus(IngestResult o) {
            return new IngestResult(
                    inserted + o.inserted,
                    reclassified + o.reclassified,
                    archived + o.archived,
                    unchanged + o.unchanged,
                    deliveriesQueued + o.deliveriesQueued);
        }
    }
}
