package dev.cadastro.core.calls;

import dev.cadastro.core.document.Violation;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Use case: calls into the {@link CallStore}, from a file of records ({@link #ingest}) or from a {@link
 * CallSource} tick by tick ({@link #runOnce}). A tick claims the source's checkpoint under a lease and
 * reads the changes since the checkpoint one slice of source time at a time ({@link Options#slice()}):
 * each slice is ingested in batches (each batch one transaction with its push deliveries), then the
 * checkpoint advances to the slice's end and the lease is renewed. A tick that fails half-way leaves the
 * checkpoint at the last slice that committed, and the next tick reads the rest again, which ingest
 * absorbs (it is idempotent by call id).
 *
 * <p>A record the source gives that cannot be ingested (it breaks {@link #check}, or the store refuses
 * it) is skipped and kept with {@link IngestCheckpoints#reject}, so one bad record never blocks its
 * source and is never lost either.
 */
public final class CallIngest {
    private static final System.Logger LOG = System.getLogger(CallIngest.class.getName());

    /** Longest text accepted in a record's free-text fields (login, names, queue, result). */
    public static final int MAX_TEXT = 255;

    /** The longest recording a record may report: a day. */
    public static final int MAX_DURATION_SECONDS = 86_400;

    private static final Pattern RECORDING_KEY = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

    /** The first instant of year 1 and of year 10,000: PostgreSQL's text form of a time outside them is not ISO 8601. */
    private static final Instant FIRST_TIME =
            java.time.LocalDate.of(1, 1, 1).atStartOfDay().toInstant(java.time.ZoneOffset.UTC);

    private static final Instant END_OF_TIME =
            java.time.LocalDate.of(10_000, 1, 1).atStartOfDay().toInstant(java.time.ZoneOffset.UTC);

    /**
     * How ingest runs.
     *
     * @param owner this server's name in the checkpoints' leases, unique among the servers on one database
     * @param firstLookBack how far back a source that was never ingested is read the first time
     * @param batchSize calls per transaction
     * @param lease how long a tick may hold a source before another server may take it over; renewed
     *     after each slice, so it needs to cover one slice's read and ingest, not the whole tick
     * @param slice the longest interval of source time read at once: a long first look-back or a source
     *     that was down for days is read and committed slice by slice, the checkpoint advancing after each
     * @param safetyLag how far behind the tick's time the window ends: zero for a source that reports each
     *     change as it happens (the simulated exchange); a few minutes for an exchange whose events appear
     *     late, so an event stamped before the checkpoint but reported after it is still read
     */
    public record Options(
            String owner, Duration firstLookBack, int batchSize, Duration lease, Duration slice, Duration safetyLag) {
        public Options {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(firstLookBack, "firstLookBack");
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(slice, "slice");
            Objects.requireNonNull(safetyLag, "safetyLag");
            if (owner.isBlank()) {
                throw new IllegalArgumentException("owner must not be blank");
            }
            if (firstLookBack.isNegative()) {
                throw new IllegalArgumentException("firstLookBack " + firstLookBack + " must not be negative");
            }
            if (batchSize < 1 || batchSize > 10_000) {
                throw new IllegalArgumentException("batchSize " + batchSize + " must be between 1 and 10000");
            }
            if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("lease " + lease + " must be at least 1 second");
            }
            if (slice.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("slice " + slice + " must be at least 1 second");
            }
            if (safetyLag.isNegative() || safetyLag.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("safetyLag " + safetyLag + " must be between 0 and 1 day");
            }
        }

        /**
         * The lease a tick takes: one minute. It is renewed after every slice, so it needs to cover one
         * slice, not a tick; and it is how long a source waits for another server when the one ingesting
         * it dies in the middle of a tick (a {@code kill -9}, or a database lost before the release), so
         * it is kept short: the fleet run found a 10-minute lease stopping the feed for the whole run.
         */
        public static final Duration DEFAULT_LEASE = Duration.ofMinutes(1);

        /**
         * For {@code owner}: the 7-day window read back the first time, batches of 1,000, the {@link
         * #DEFAULT_LEASE}, slices of an hour, no safety lag.
         */
        public static Options defaults(String owner) {
            return new Options(owner, Duration.ofDays(7), 1_000, DEFAULT_LEASE, Duration.ofHours(1), Duration.ZERO);
        }

        public Options withOwner(String newOwner) {
            return new Options(newOwner, firstLookBack, batchSize, lease, slice, safetyLag);
        }

        public Options withFirstLookBack(Duration d) {
            return new Options(owner, d, batchSize, lease, slice, safetyLag);
        }

        public Options withBatchSize(int n) {
            return new Options(owner, firstLookBack, n, lease, slice, safetyLag);
        }

        public Options withLease(Duration d) {
            return new Options(owner, firstLookBack, batchSize, d, slice, safetyLag);
        }

        public Options withSlice(Duration d) {
            return new Options(owner, firstLookBack, batchSize, lease, d, safetyLag);
        }

        public Options withSafetyLag(Duration d) {
            return new Options(owner, firstLookBack, batchSize, lease, slice, d);
        }
    }

    private final CallStore store;
    private final IngestCheckpoints checkpoints;
    private final Options options;
    private final Clock clock;

    /** @param clock read to renew a tick's lease between slices (the tick's own time is given to {@link #runOnce}) */
    public CallIngest(CallStore store, IngestCheckpoints checkpoints, Options options, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Options options() {
        return options;
    }

    /**
     * What is wrong with a record beyond what {@link CallRecord}'s constructor already refuses, or empty
     * when it may be ingested. The violation names the field and the rule. Everything the store would
     * refuse for the record alone is refused here: text with control characters (PostgreSQL refuses the
     * NUL character in text; the others have no place in a name or a result either) and times outside the
     * years 1 to 9999.
     */
    public static Optional<Violation> check(CallRecord r) {
        if (r.integrationId() < 1) {
            return bad("integrationId", "positive", Message.CALL_INTEGRATION_POSITIVE.with(r.integrationId()));
        }
        Optional<Violation> text = text("agentLogin", r.agentLogin(), true)
                .or(() -> text("queue", r.queue(), true))
                .or(() -> text("resultDescription", r.resultDescription(), true))
                .or(() -> text("occurrenceId", r.occurrenceId(), true))
                .or(() -> text("agentId", r.agentId(), false))
                .or(() -> text("agentName", r.agentName(), false))
                .or(() -> text("resultCode", r.resultCode(), false));
        if (text.isPresent()) {
            return text;
        }
        Optional<Violation> times = time("classifiedAt", r.classifiedAt())
                .or(() -> time("startedAt", r.startedAt()))
                .or(() -> r.archivedAt() == null ? Optional.empty() : time("archivedAt", r.archivedAt()));
        if (times.isPresent()) {
            return times;
        }
        if (r.durationSeconds() > MAX_DURATION_SECONDS) {
            return bad(
                    "durationSeconds",
                    "maximum",
                    Message.MAXIMUM.with("durationSeconds", r.durationSeconds(), MAX_DURATION_SECONDS));
        }
        if (r.classifiedAt().isBefore(r.startedAt())) {
            return bad(
                    "classifiedAt",
                    "after-start",
                    Message.CALL_BEFORE_START.with("classifiedAt", r.classifiedAt(), r.startedAt()));
        }
        if (r.archivedAt() != null && r.archivedAt().isBefore(r.startedAt())) {
            return bad(
                    "archivedAt",
                    "after-start",
                    Message.CALL_BEFORE_START.with("archivedAt", r.archivedAt(), r.startedAt()));
        }
        String key = r.recordingKey();
        if (key.length() > 512 || !RECORDING_KEY.matcher(key).matches() || key.contains("..")) {
            return bad("recordingKey", "relative-key", Message.CALL_RECORDING_KEY.with(key));
        }
        return Optional.empty();
    }

    private static Optional<Violation> text(String field, String value, boolean required) {
        if (value == null || value.isBlank()) {
            return required ? bad(field, Violation.REQUIRED, Message.NOT_BLANK.with(field)) : Optional.empty();
        }
        if (value.length() > MAX_TEXT) {
            return bad(field, "maximum", Message.TOO_LONG.with(field, value.length(), MAX_TEXT));
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (Character.isISOControl(ch)) {
                return bad(
                        field,
                        "no-control-characters",
                        Message.CONTROL_CHARACTER_AT.with(field, String.format(Locale.ROOT, "%04X", (int) ch), i + 1));
            }
        }
        return Optional.empty();
    }

    private static Optional<Violation> time(String field, Instant value) {
        if (value.isBefore(FIRST_TIME) || !value.isBefore(END_OF_TIME)) {
            return bad(field, "year", Message.CALL_YEAR.with(field, value));
        }
        return Optional.empty();
    }

    private static Optional<Violation> bad(String field, String rule, LocalizedText message) {
        return Optional.of(new Violation(field, rule, message));
    }

    /**
     * Checks every record, then ingests them in batches of {@link Options#batchSize()} (each one
     * transaction). Nothing is written when any record is invalid; should the store fail part-way (a lost
     * connection), the batches before it stay committed, and ingesting the same records again is safe.
     *
     * @throws InvalidParameterException naming the record's position and id, the field and the rule
     */
    public CallStore.IngestResult ingest(List<CallRecord> calls) {
        for (int i = 0; i < calls.size(); i++) {
            CallRecord r = calls.get(i);
            Optional<Violation> v = check(r);
            if (v.isPresent()) {
                throw InvalidParameterException.of(
                        v.get().field(),
                        v.get().rule(),
                        Message.CALL_RECORD_INVALID.with(i + 1, r.id(), v.get().text()));
            }
        }
        return ingestChecked(calls);
    }

    private CallStore.IngestResult ingestChecked(List<CallRecord> calls) {
        CallStore.IngestResult total = CallStore.IngestResult.NOTHING;
        for (int from = 0; from < calls.size(); from += options.batchSize()) {
            total = total.plus(store.ingest(calls.subList(from, Math.min(calls.size(), from + options.batchSize()))));
        }
        return total;
    }

    /**
     * One tick for one source: claims its checkpoint and ingests its changes in (checkpoint, {@code now} -
     * {@link Options#safetyLag()}], one {@link Options#slice()} of source time at a time, advancing the
     * checkpoint after each slice commits and renewing the lease before the next. Invalid records, and
     * records the store refuses, are skipped and kept with {@link IngestCheckpoints#reject} (one bad
     * record must not stop a contact center's feed); the tick's log line counts them.
     *
     * @param now the tick's time; cut to the microsecond, the precision of the checkpoints
     * @return what was ingested, or empty when another server holds the source
     * @throws Exception what the source or the store threw (other than refusing a record); the checkpoint
     *     stays at the end of the last slice that committed
     */
    public Optional<CallStore.IngestResult> runOnce(CallSource source, Instant now) throws Exception {
        // The checkpoints keep microseconds, and a driver rounds a finer instant to the nearest one: a
        // checkpoint stored from a tick 700 ns past a microsecond would be rounded up, and a call classified
        // in that microsecond would fall after this window but before the next one. Cut first, so the window
        // the source is asked for ends exactly where the checkpoint is stored.
        Instant tick = now.truncatedTo(ChronoUnit.MICROS);
        Instant end = tick.minus(options.safetyLag());
        String name = source.name();
        Optional<Instant> claimed =
                checkpoints.claim(name, options.owner(), tick, options.lease(), tick.minus(options.firstLookBack()));
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Tally tally = new Tally();
        // The lease is renewed every third of it while the tick runs, not only between slices: a slice
        // slower than the lease (a source catching up after an outage) would otherwise lose the source to
        // another server, whose own slice would run over too, and the checkpoint would never move.
        Thread heartbeat = Thread.ofVirtual().name("ingest-lease-" + name).start(() -> renewWhileRunning(name));
        try {
            Instant from = claimed.get();
            while (from.isBefore(end)) {
                Instant to = from.plus(options.slice()).isBefore(end) ? from.plus(options.slice()) : end;
                ingestChanges(name, source.changes(from, to), tick, tally);
                if (!checkpoints.advance(name, options.owner(), to)) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "source {0}: the lease ran out during the tick and another server took the source;"
                                    + " the calls up to {1} are ingested, the checkpoint is left to it",
                            name,
                            to);
                    break;
                }
                from = to;
                if (from.isBefore(end)
                        && checkpoints
                                .claim(name, options.owner(), clock.instant(), options.lease(), from)
                                .isEmpty()) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "source {0}: another server took the source at {1}; it goes on from there",
                            name,
                            from);
                    break;
                }
            }
            if (tally.rejected > 0) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "source {0}: {1} ingested, {2} record(s) rejected and kept with the rejects",
                        name,
                        tally.result,
                        tally.rejected);
            }
            return Optional.of(tally.result);
        } finally {
            heartbeat.interrupt();
            try {
                heartbeat.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            checkpoints.release(name, options.owner());
        }
    }

    /**
     * Renews this server's lease on {@code source} every third of the lease until interrupted; stops when
     * the lease was lost (the tick then finds out at its next advance). A renewal that fails (the database
     * away) is tried again at the next beat.
     */
    private void renewWhileRunning(String source) {
        long every = Math.max(1, options.lease().toMillis() / 3);
        while (true) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            try {
                // The checkpoint is only read here (the claim returns it); an unknown source is never created,
                // since the tick's own claim made it.
                if (checkpoints
                        .claim(source, options.owner(), clock.instant(), options.lease(), clock.instant())
                        .isEmpty()) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "renewing the ingest lease of " + source + " failed", e);
            }
        }
    }

    /** What a tick did so far: the store's counts and the records rejected. */
    private static final class Tally {
        CallStore.IngestResult result = CallStore.IngestResult.NOTHING;
        int rejected;
    }

    /**
     * Ingests one slice's changes in batches, skipping and keeping what cannot be ingested. A batch the
     * store refuses ({@link InvalidParameterException}: a record the check let through but the database
     * does not take) is retried record by record, so only the refused record is rejected; any other
     * failure (the database is down) is thrown, and the tick ends without advancing.
     */
    private void ingestChanges(String source, List<CallRecord> changes, Instant at, Tally tally) {
        List<CallRecord> valid = new ArrayList<>(changes.size());
        for (CallRecord r : changes) {
            Optional<Violation> v = check(r);
            if (v.isPresent()) {
                reject(source, r, v.get().message() + " (rule " + v.get().rule() + ")", at, tally);
            } else {
                valid.add(r);
            }
        }
        for (int from = 0; from < valid.size(); from += options.batchSize()) {
            List<CallRecord> batch = valid.subList(from, Math.min(valid.size(), from + options.batchSize()));
            try {
                tally.result = tally.result.plus(store.ingest(batch));
            } catch (InvalidParameterException refused) {
                for (CallRecord r : batch) {
                    try {
                        tally.result = tally.result.plus(store.ingest(List.of(r)));
                    } catch (InvalidParameterException e) {
                        reject(source, r, "the store refused it: " + e.getMessage(), at, tally);
                    }
                }
            }
        }
    }

    private void reject(String source, CallRecord r, String reason, Instant at, Tally tally) {
        LOG.log(System.Logger.Level.WARNING, "source {0}: call {1} rejected: {2}", source, r.id(), reason);
        checkpoints.reject(source, r, reason, at);
        tally.rejected++;
    }
}
