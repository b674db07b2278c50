package dev.cadastro.providers.calls;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.files.FileStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A test-scope stand-in for the PostgreSQL call store: {@link #ingest} as the port's contract says,
 * and a check that no call arrives ready before its recording is in the file store.
 */
final class MemoryCallStore implements CallStore {
    private final Map<String, CallRecord> calls = new TreeMap<>();
    private final FileStore recordings;

    MemoryCallStore(FileStore recordings) {
        this.recordings = recordings;
    }

    @Override
    public IngestResult ingest(List<CallRecord> batch) {
        int inserted = 0, reclassified = 0, archived = 0, unchanged = 0;
        for (CallRecord in : batch) {
            if (in.ready()) {
                try {
                    if (recordings.open(in.recordingKey()).isEmpty()) {
                        throw new AssertionError(in.id() + " arrived ready before its recording");
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            String key = in.integrationId() + "/" + in.id();
            CallRecord known = calls.get(key);
            if (known == null) {
                calls.put(key, in);
                inserted++;
                continue;
            }
            boolean later = in.classifiedAt().isAfter(known.classifiedAt());
            boolean archiving = known.archivedAt() == null && in.archivedAt() != null;
            calls.put(
                    key,
                    new CallRecord(
                            in.integrationId(),
                            in.id(),
                            in.occurrenceId(),
                            in.agentId(),
                            in.agentLogin(),
                            in.agentName(),
                            in.queue(),
                            later ? in.resultCode() : known.resultCode(),
                            later ? in.resultDescription() : known.resultDescription(),
                            later ? in.classifiedAt() : known.classifiedAt(),
                            in.startedAt(),
                            in.durationSeconds(),
                            known.archivedAt() != null ? known.archivedAt() : in.archivedAt(),
                            in.recordingKey()));
            if (later) {
                reclassified++;
            }
            if (archiving) {
                archived++;
            }
            if (!later && !archiving) {
                unchanged++;
            }
        }
        return new IngestResult(inserted, reclassified, archived, unchanged, 0);
    }

    @Override
    public List<CallRecord> page(
            long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit) {
        throw new UnsupportedOperationException("not needed by the import");
    }

    @Override
    public Optional<CallRecord> find(long integrationId, String id) {
        return Optional.ofNullable(calls.get(integrationId + "/" + id));
    }
}
