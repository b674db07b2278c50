package dev.cadastro.core.calls;

import dev.cadastro.core.error.Message;
import dev.cadastro.core.files.FileStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The read side of the call-records service: list by signed cursor, one call, and the
 * audio's signed redirect, each for one integration only.
 *
 * <ul>
 *   <li>{@link #list}: ready calls (recording archived) with {@code classifiedAt} in the last {@value
 *       #RETENTION_DAYS} days, newest first; fetches one call more than the page to know whether there
 *       is a next one, so the last page has no cursor;
 *   <li>{@link #feed}: ready calls in the order they became listable or were reclassified, oldest first,
 *       by a cursor that always resumes where the last page ended (ADR 0048);
 *   <li>{@link #find}: {@link CallNotFoundException} when unknown, of another integration, not ready,
 *       or outside the window;
 *   <li>{@link #audio}: {@link CallNotFoundException} when unknown or of another integration, {@link
 *       RecordingUnavailableException} while not archived, otherwise a new one-hour link: the store's own
 *       ({@link FileStore#temporaryLink}, a presigned GET on an object store) when it can mint one, else
 *       one on the recording host; it works after the window (audio stays available indefinitely).
 * </ul>
 */
public final class CallRecords {
    /** The metadata window, in days ({@code retencao_dias}). */
    public static final int RETENTION_DAYS = 7;

    public static final Duration RETENTION = Duration.ofDays(RETENTION_DAYS);
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    private final CallStore store;
    private final CallCursors cursors;
    private final RecordingLinks links;
    private final Clock clock;
    private final FileStore files; // null: links on the recording host only

    /** Audio links on the recording host only. */
    public CallRecords(CallStore store, CallCursors cursors, RecordingLinks links, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.cursors = Objects.requireNonNull(cursors, "cursors");
        this.links = Objects.requireNonNull(links, "links");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.files = null;
    }

    /** Audio links minted by {@code files} when it can, else on the recording host. */
    public CallRecords(CallStore store, CallCursors cursors, RecordingLinks links, Clock clock, FileStore files) {
        this.store = Objects.requireNonNull(store, "store");
        this.cursors = Objects.requireNonNull(cursors, "cursors");
        this.links = Objects.requireNonNull(links, "links");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.files = Objects.requireNonNull(files, "files");
    }

    /** One page of the list, and the cursor of the next one when there is one. */
    public record Page(List<CallRecord> calls, int limit, Optional<String> nextCursor) {
        public Page {
            calls = List.copyOf(calls);
            Objects.requireNonNull(nextCursor, "nextCursor");
        }
    }

    /**
     * A page of the integration's calls.
     *
     * @param limit the page size, 1 to {@value #MAX_LIMIT}
     * @param cursor the previous page's {@code proximo_cursor}, or empty for the first page
     * @throws CallParameterException when the limit is out of range or the cursor is refused
     */
    public Page list(Integration integration, CallFilter filter, int limit, Optional<String> cursor) {
        Objects.requireNonNull(integration, "integration");
        Objects.requireNonNull(filter, "filter");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new CallParameterException("limite", Message.CALLS_LIMIT.with(limit, MAX_LIMIT));
        }
        Optional<CallPosition> after = cursor.map(c -> cursors.decode(integration.id(), filter, c));
        List<CallRecord> found = store.page(integration.id(), filter, after, windowStart(), limit + 1);
        if (found.size() <= limit) {
            return new Page(found, limit, Optional.empty());
        }
        List<CallRecord> page = found.subList(0, limit);
        String next =
                cursors.encode(integration.id(), filter, page.get(limit - 1).position());
        return new Page(page, limit, Optional.of(next));
    }

    /**
     * One page of the feed ({@code ordem=disponibilidade}) and where the next poll resumes.
     *
     * @param nextCursor the position after the last entry, or the cursor given when the page is empty, so a
     *     client always has a cursor to keep once it has one; empty only when no cursor was given and the
     *     page is empty (the next poll starts where this one did)
     * @param complete whether the page reached the end of what is committed now (fewer entries than the
     *     limit): the client polls again later, with {@code nextCursor}
     */
    public record FeedPage(List<FeedEntry> entries, int limit, Optional<String> nextCursor, boolean complete) {
        public FeedPage {
            entries = List.copyOf(entries);
            Objects.requireNonNull(nextCursor, "nextCursor");
        }
    }

    /**
     * A page of the integration's feed: ready calls in the order they became listable or were reclassified,
     * oldest first. The filter's {@code since} and {@code until} must be empty (they bound {@code
     * datahistorico}, which the feed does not follow); {@code availableSince} bounds {@link
     * FeedEntry#availableAt()} instead and is ignored when a cursor is given.
     *
     * @throws CallParameterException when the limit is out of range or the cursor is refused
     */
    public FeedPage feed(
            Integration integration,
            CallFilter filter,
            Optional<Instant> availableSince,
            int limit,
            Optional<String> cursor) {
        Objects.requireNonNull(integration, "integration");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(availableSince, "availableSince");
        if (filter.since().isPresent() || filter.until().isPresent()) {
            throw new IllegalArgumentException("the feed takes no datahistorico bounds");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new CallParameterException("limite", Message.CALLS_LIMIT.with(limit, MAX_LIMIT));
        }
        Optional<FeedPosition> after = cursor.map(c -> cursors.decodeFeed(integration.id(), filter, c));
        List<FeedEntry> found = store.feed(
                integration.id(),
                filter,
                after.isPresent() ? Optional.empty() : availableSince,
                after,
                windowStart(),
                limit);
        Optional<String> next = found.isEmpty()
                ? cursor
                : Optional.of(cursors.encodeFeed(
                        integration.id(), filter, found.get(found.size() - 1).position()));
        return new FeedPage(found, limit, next, found.size() < limit);
    }

    /** The ready call of this integration with this id, within the window. */
    public CallRecord find(Integration integration, String id) {
        CallRecord call =
                known(integration, id).filter(CallRecord::ready).orElseThrow(() -> new CallNotFoundException(id));
        if (call.classifiedAt().isBefore(windowStart())) {
            throw new CallNotFoundException(id);
        }
        return call;
    }

    /** A new link to the recording, valid one hour, for the audio endpoint's redirect. */
    public String audio(Integration integration, String id) {
        CallRecord call = known(integration, id).orElseThrow(() -> new CallNotFoundException(id));
        if (!call.ready()) {
            throw new RecordingUnavailableException(id);
        }
        Optional<java.net.URI> direct = files == null
                ? Optional.empty()
                : files.temporaryLink(call.recordingKey(), RecordingLinks.TEMPORARY_VALIDITY);
        return direct.map(java.net.URI::toString).orElseGet(() -> links.temporary(call));
    }

    /** The permanent signed link the metadata carries in {@code url_gravacao}. */
    public String recordingUrl(CallRecord call) {
        return links.permanent(call);
    }

    /** The oldest {@code classifiedAt} still in the metadata window. */
    public Instant windowStart() {
        return clock.instant().minus(RETENTION);
    }

    private Optional<CallRecord> known(Integration integration, String id) {
        Objects.requireNonNull(integration, "integration");
        if (!CallRecord.validId(id)) {
            return Optional.empty();
        }
        return store.find(integration.id(), id).filter(c -> c.integrationId() == integration.id());
    }
}
