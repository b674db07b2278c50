package dev.cadastro.core.calls;

import dev.cadastro.core.document.Violation;
import dev.cadastro.core.error.InvalidParameterException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Use case: calls into the {@link CallStore}, from a file of records ({@link #ingest}) or from a {@link
 * CallSource} tick by tick ({@link #runOnce}). A tick claims the source's checkpoint under a lease, reads
 * the changes since the checkpoint, ingests them in batches (each batch one transaction with its push
 * deliveries) and only then advances the checkpoint: a tick that fails half-way leaves the checkpoint
 * where it was, and the next tick reads the same changes again, which ingest absorbs (it is idempotent by
 * call id).
 */
public final class CallIngest {
    private static final System.Logger LOG = System.getLogger(CallIngest.class.getName());

    /** Longest text accepted in a record's free-text fields (login, names, queue, result). */
    public static final int MAX_TEXT = 255;

    /** The longest recording a record may report: a day. */
    public static final int MAX_DURATION_SECONDS = 86_400;

    private static final Pattern RECORDING_KEY = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

    /**
     * How ingest runs.
     *
     * @param owner this server's name in the checkpoints' leases, unique among the servers on one database
     * @param firstLookBack how far back a source that was never ingested is read the first time
     * @param batchSize calls per transaction
     * @param lease how long a tick may hold a source before another server may take it over
     */
    public record Options(String owner, Duration firstLookBack, int batchSize, Duration lease) {
        public Options {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(firstLookBack, "firstLookBack");
            Objects.requireNonNull(lease, "lease");
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
        }

        /** For {@code owner}: the 7-day window read back the first time, batches of 1,000, a 10-minute lease. */
        public static Options defaults(String owner) {
            return new Options(owner, Duration.ofDays(7), 1_000, Duration.ofMinutes(10));
        }

        public Options withOwner(String newOwner) {
            return new Options(newOwner, firstLookBack, batchSize, lease);
        }

        public Options withFirstLookBack(Duration d) {
            return new Options(owner, d, batchSize, lease);
        }

        public Options withBatchSize(int n) {
            return new Options(owner, firstLookBack, n, lease);
        }

        public Options withLease(Duration d) {
            return new Options(owner, firstLookBack, batchSize, d);
        }
    }

    private final CallStore store;
    private final IngestCheckpoints checkpoints;
    private final Options options;

    public CallIngest(CallStore store, IngestCheckpoints checkpoints, Options options) {
        this.store = Objects.requireNonNull(store, "store");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.options = Objects.requireNonNull(options, "options");
    }

    public Options options() {
        return options;
    }

    /**
     * What is wrong with a record beyond what {@link CallRecord}'s constructor already refuses, or empty
     * when it may be ingested. The violation names the field and the rule.
     */
    public static Optional<Violation> check(CallRecord r) {
        if (r.integrationId() < 1) {
            return bad("integrationId", "positive", "integrationId " + r.integrationId() + " must be positive");
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
        if (r.durationSeconds() > MAX_DURATION_SECONDS) {
            return bad(
                    "durationSeconds",
                    "maximum",
                    "durationSeconds " + r.durationSeconds() + " exceeds the maximum " + MAX_DURATION_SECONDS);
        }
        if (r.classifiedAt().isBefore(r.startedAt())) {
            return bad(
                    "classifiedAt",
                    "after-start",
                    "classifiedAt " + r.classifiedAt() + " is before the call started at " + r.startedAt());
        }
        if (r.archivedAt() != null && r.archivedAt().isBefore(r.startedAt())) {
            return bad(
                    "archivedAt",
                    "after-start",
                    "archivedAt " + r.archivedAt() + " is before the call started at " + r.startedAt());
        }
        String key = r.recordingKey();
        if (key.length() > 512 || !RECORDING_KEY.matcher(key).matches() || key.contains("..")) {
            return bad(
                    "recordingKey",
                    "relative-key",
                    "recordingKey '" + key + "' must be a relative key of letters, digits, '.', '-', '_' and '/'"
                            + " segments, without '..', at most 512 characters");
        }
        return Optional.empty();
    }

    private static Optional<Violation> text(String field, String value, boolean required) {
        if (value == null || value.isBlank()) {
            return required ? bad(field, Violation.REQUIRED, field + " must not be blank") : Optional.empty();
        }
        if (value.length() > MAX_TEXT) {
            return bad(field, "maximum", field + " has " + value.length() + " characters; the maximum is " + MAX_TEXT);
        }
        return Optional.empty();
    }

    private static Optional<Violation> bad(String field, String rule, String message) {
        return Optional.of(new Violation(field, rule, message));
    }

    /**
     * Checks every record, then ingests them in batches of {@link Options#batchSize()} (each one
     * transaction). Nothing is written when any record is invalid.
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
                        "record " + (i + 1) + " (call " + r.id() + "): "
                                + v.get().message());
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
     * One tick for one source: claims its checkpoint, ingests its changes in (checkpoint, now] and
     * advances the checkpoint to {@code now}; the source's invalid records are logged and skipped (one
     * bad record must not stop a contact center's feed).
     *
     * @param now the tick's time; cut to the microsecond, the precision of the checkpoints
     * @return what was ingested, or empty when another server holds the source
     * @throws Exception what the source or the store threw; the checkpoint did not move
     */
    public Optional<CallStore.IngestResult> runOnce(CallSource source, Instant tickTime) throws Exception {
        // The checkpoints keep microseconds, and a driver rounds a finer instant to the nearest one: a
        // checkpoint stored from a tick 700 ns past a microsecond would be rounded up, and a call classified
        // in that microsecond would fall after this window but before the next one. Cut first, so the window
        // the source is asked for ends exactly where the checkpoint is stored.
        Instant now = tickTime.truncatedTo(ChronoUnit.MICROS);
        String name = source.name();
        Optional<Instant> claimed =
                checkpoints.claim(name, options.owner(), now, options.lease(), now.minus(options.firstLookBack()));
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        try {
            Instant from = claimed.get();
            if (!now.isAfter(from)) {
                return Optional.of(CallStore.IngestResult.NOTHING);
            }
            List<CallRecord> changes = source.changes(from, now);
            List<CallRecord> valid = new ArrayList<>(changes.size());
            for (CallRecord r : changes) {
                Optional<Violation> v = check(r);
                if (v.isPresent()) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "source {0}: call {1} skipped: {2} (rule {3})",
                            name,
                            r.id(),
                            v.get().message(),
                            v.get().rule());
                } else {
                    valid.add(r);
                }
            }
            CallStore.IngestResult result = ingestChecked(valid);
            if (!checkpoints.advance(name, options.owner(), now)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "source {0}: the lease ran out during the tick and another server took the source;"
                                + " the calls are ingested, the checkpoint is left to it",
                        name);
            }
            return Optional.of(result);
        } finally {
            checkpoints.release(name, options.owner());
        }
    }
}
