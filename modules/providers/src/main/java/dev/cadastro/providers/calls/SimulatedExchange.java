package dev.cadastro.providers.calls;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.files.FileStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A simulated telephone exchange serving one integration: calls answered by agents in queues,
 * classified, their recordings archived a few minutes later as WAV files, and a few of them
 * reclassified later.
 *
 * <p>It keeps no state. Every call is derived from the seed, the integration and the minute (the
 * <em>slot</em>) its first classification falls in, so {@link #changes} is a pure function of its
 * interval: the same question always gets the same answer, on any machine, and changes over
 * consecutive intervals add up to the changes over their union. It looks only at the slots that can
 * have an event in the interval: those from {@link #MAX_EVENT_DELAY} before it to its end.
 *
 * <p>What the calls look like:
 *
 * <ul>
 *   <li>about {@link Options#callsPerMinute()} calls a minute (plus or minus a third), and many share
 *       a second with the call before them (about a third), some even the microsecond, as on the real
 *       exchange;
 *   <li>agents with logins such as {@code maria.aparecida.souza}, named from the login ({@code Maria
 *       Aparecida Souza}: compound names and accents are not recovered); two of them left the registry,
 *       so their calls have no agent id and no name, though the login stays;
 *   <li>four outbound queues, each with its own catalogue, so the same result ({@code Retornar
 *       ligação}) has a different code in each; two receptive queues with no catalogue (null code)
 *       carry about 6% of the calls;
 *   <li>the recording is archived 2 to 8 minutes after the classification; about 3% of calls are
 *       reclassified (another result of the same queue) 5 minutes to 48 hours later, mostly within the
 *       hour.
 * </ul>
 *
 * <p>Ids are protocols like {@code 20261124-0612003}: the slot's date in UTC-3, then its minute of the
 * day times 1,000 plus the call's place in the minute, so they never repeat within the integration.
 *
 * <p>Before it reports a call archived it writes the recording (a {@link WavRecording} of tones)
 * through the file store under {@link WavRecording#key}, unless a file of the right size is there
 * already. {@link Options#maxRecordingSeconds()} may cap the audio's length (the demo keeps files
 * short); the metadata keeps the call's real duration.
 */
public final class SimulatedExchange implements CallSource {
    /** The latest a call's archiving comes after its classification. */
    public static final Duration MAX_ARCHIVE_DELAY = Duration.ofMinutes(8);
    /** The latest a reclassification comes after the first classification. */
    public static final Duration MAX_RECLASSIFICATION_DELAY = Duration.ofHours(48);
    /** The latest any event of a call comes after its slot starts. */
    public static final Duration MAX_EVENT_DELAY = MAX_RECLASSIFICATION_DELAY.plusMinutes(1);

    /** Brasília time, a fixed offset: the protocol's date. */
    private static final ZoneOffset BRASILIA = ZoneOffset.ofHours(-3);

    private final long integrationId;
    private final Options options;
    private final FileStore recordings;

    public SimulatedExchange(long integrationId, Options options, FileStore recordings) {
        this.integrationId = integrationId;
        this.options = Objects.requireNonNull(options, "options");
        this.recordings = Objects.requireNonNull(recordings, "recordings");
    }

    @Override
    public String name() {
        return "simulated-exchange-" + integrationId;
    }

    public long integrationId() {
        return integrationId;
    }

    public Options options() {
        return options;
    }

    /** The agents' logins, those who left included: values for the {@code agente} filter. */
    public static List<String> logins() {
        return ExchangeFloor.AGENTS.stream().map(ExchangeFloor.Agent::login).toList();
    }

    /** The queues' names, receptive ones included: values for the {@code fila} filter. */
    public static List<String> queues() {
        List<String> names = new ArrayList<>();
        ExchangeFloor.ACTIVE.forEach(q -> names.add(q.name()));
        ExchangeFloor.RECEPTIVE.forEach(q -> names.add(q.name()));
        return names;
    }

    @Override
    public List<CallRecord> changes(Instant from, Instant to) throws IOException {
        List<CallRecord> changed = calls(from, to);
        for (CallRecord call : changed) {
            if (call.ready()) {
                writeRecording(call);
            }
        }
        return changed;
    }

    /**
     * What {@link #changes} reports, without writing any recording: the state at {@code to} of every
     * call classified, reclassified or archived in {@code (from, to]}, ordered by id.
     */
    public List<CallRecord> calls(Instant from, Instant to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        List<CallRecord> out = new ArrayList<>();
        if (!from.isBefore(to)) {
            return out;
        }
        long first = Math.max(
                Math.floorDiv(from.minus(MAX_EVENT_DELAY).getEpochSecond(), 60),
                Math.floorDiv(options.openedAt().getEpochSecond() + 59, 60));
        long last = Math.floorDiv(to.getEpochSecond(), 60);
        for (long minute = first; minute <= last; minute++) {
            for (Call call : slot(minute)) {
                if (call.changedWithin(from, to)) {
                    out.add(call.stateAt(integrationId, to));
                }
            }
        }
        out.sort(Comparator.comparing(CallRecord::id));
        return out;
    }

    /** The audio's length for a call of this duration: the duration, capped by the options. */
    public int recordingSeconds(int durationSeconds) {
        return Math.min(durationSeconds, options.maxRecordingSeconds());
    }

    private void writeRecording(CallRecord call) throws IOException {
        int seconds = recordingSeconds(call.durationSeconds());
        long size = WavRecording.fileSize(seconds);
        var existing = recordings.open(call.recordingKey());
        if (existing.isPresent()) {
            try (var d = existing.get()) {
                if (d.size() == size) {
                    return;
                }
            }
        }
        try (FileStore.Upload upload = recordings.create(call.recordingKey())) {
            WavRecording.writeTones(upload.stream(), seconds, audioSeed(call.id()));
            upload.commit();
        }
    }

    private long audioSeed(String callId) {
        return hash(options.seed(), integrationId, callId.hashCode());
    }

    /** Every call whose first classification falls in this minute, in the order they were drawn. */
    List<Call> slot(long minute) {
        SplittableRandom slot = new SplittableRandom(hash(options.seed(), integrationId, minute));
        int rate = options.callsPerMinute();
        int spread = rate / 3;
        int count = Math.min(999, rate + (spread == 0 ? 0 : slot.nextInt(-spread, spread + 1)));
        Instant start = Instant.ofEpochSecond(minute * 60);
        LocalDateTime local = LocalDateTime.ofInstant(start, BRASILIA);
        String date = String.format(
                Locale.ROOT, "%04d%02d%02d", local.getYear(), local.getMonthValue(), local.getDayOfMonth());
        int minuteOfDay = local.getHour() * 60 + local.getMinute();
        List<Call> calls = new ArrayList<>(count);
        long second = -1;
        long micros = 0;
        for (int i = 0; i < count; i++) {
            int tie = slot.nextInt(100);
            if (second < 0 || tie >= 35) {
                second = slot.nextInt(60);
                micros = slot.nextInt(1_000_000);
            } else if (tie >= 10) {
                micros = slot.nextInt(1_000_000);
            } // else: the very same microsecond as the call before
            Instant classified = start.plusSeconds(second).plus(micros, ChronoUnit.MICROS);
            String id = date + "-" + String.format(Locale.ROOT, "%07d", minuteOfDay * 1000 + i);
            calls.add(draw(id, classified, slot.split()));
        }
        return calls;
    }

    private Call draw(String id, Instant classified, SplittableRandom r) {
        ExchangeFloor.Queue queue = r.nextInt(1000) < 60
                ? ExchangeFloor.RECEPTIVE.get(r.nextInt(ExchangeFloor.RECEPTIVE.size()))
                : ExchangeFloor.ACTIVE.get(r.nextInt(ExchangeFloor.ACTIVE.size()));
        ExchangeFloor.Agent agent = ExchangeFloor.AGENTS.get(r.nextInt(ExchangeFloor.AGENTS.size()));
        int result = r.nextInt(queue.descriptions().size());
        // Mostly a few minutes, a long tail up to half an hour.
        int duration = (int) Math.min(1800, 15 + Math.round(-Math.log(1 - r.nextDouble()) * 170));
        int wrapUp = 5 + r.nextInt(116);
        Instant started = classified.minusSeconds(duration + wrapUp).minus(r.nextInt(1_000_000), ChronoUnit.MICROS);
        long archiveMicros = Duration.ofMinutes(2).toNanos() / 1000
                + r.nextLong(Duration.ofMinutes(6).toNanos() / 1000);
        Instant archived = classified.plus(archiveMicros, ChronoUnit.MICROS);
        Instant reclassified = null;
        int newResult = result;
        if (r.nextInt(100) < 3) {
            int band = r.nextInt(100);
            long minutes =
                    band < 70 ? 5 + r.nextInt(56) : band < 95 ? 60 + r.nextInt(11 * 60) : 12 * 60 + r.nextInt(36 * 60);
            reclassified = classified.plus(minutes * 60_000_000L + r.nextInt(60_000_000), ChronoUnit.MICROS);
            newResult = (result + 1 + r.nextInt(queue.descriptions().size() - 1))
                    % queue.descriptions().size();
        }
        return new Call(id, agent, queue, result, newResult, classified, reclassified, started, duration, archived);
    }

    /** One call as drawn: its first classification, and its later events. */
    record Call(
            String id,
            ExchangeFloor.Agent agent,
            ExchangeFloor.Queue queue,
            int result,
            int newResult,
            Instant classified,
            Instant reclassified,
            Instant started,
            int duration,
            Instant archived) {

        boolean changedWithin(Instant from, Instant to) {
            return within(classified, from, to) || within(archived, from, to) || within(reclassified, from, to);
        }

        private static boolean within(Instant t, Instant from, Instant to) {
            return t != null && t.isAfter(from) && !t.isAfter(to);
        }

        CallRecord stateAt(long integrationId, Instant to) {
            boolean again = reclassified != null && !reclassified.isAfter(to);
            String description = queue.descriptions().get(again ? newResult : result);
            return new CallRecord(
                    integrationId,
                    id,
                    id,
                    agent.id(),
                    agent.login(),
                    agent.name(),
                    queue.name(),
                    queue.code(description),
                    description,
                    again ? reclassified : classified,
                    started,
                    duration,
                    archived.isAfter(to) ? null : archived,
                    WavRecording.key(integrationId, id));
        }
    }

    private static long hash(long a, long b, long c) {
        long h = 0x9E3779B97F4A7C15L;
        for (long v : new long[] {a, b, c}) {
            h ^= v;
            h *= 0xff51afd7ed558ccdL;
            h ^= h >>> 33;
            h *= 0xc4ceb9fe1a85ec53L;
            h ^= h >>> 33;
        }
        return h;
    }

    /**
     * How the exchange behaves: an immutable value, validated when built.
     *
     * <ul>
     *   <li>{@code seed} (default 1): which calls happen;
     *   <li>{@code callsPerMinute} (default 12, from 1 to 999): the average rate;
     *   <li>{@code maxRecordingSeconds} (default {@link WavRecording#MAX_SECONDS}, so no cap): the
     *       longest audio written; a longer call's file holds only its first seconds, while its metadata
     *       keeps the real duration;
     *   <li>{@code openedAt} (default {@link Instant#MIN}, so calls at any time): the exchange has no
     *       call in a minute that starts before it. A first ingest reads days back (the 7-day window),
     *       about 120,000 calls at 12 a minute, each with its WAV file; a demo that opens the exchange
     *       when its integration is created starts with an empty list that fills minute by minute.
     * </ul>
     */
    public record Options(long seed, int callsPerMinute, int maxRecordingSeconds, Instant openedAt) {
        public Options {
            Objects.requireNonNull(openedAt, "openedAt");
            if (callsPerMinute < 1 || callsPerMinute > 999) {
                throw new IllegalArgumentException(
                        "callsPerMinute " + callsPerMinute + " must be between 1 and 999 (ids have 3 digits a minute)");
            }
            if (maxRecordingSeconds < 1 || maxRecordingSeconds > WavRecording.MAX_SECONDS) {
                throw new IllegalArgumentException("maxRecordingSeconds " + maxRecordingSeconds
                        + " must be between 1 and " + WavRecording.MAX_SECONDS);
            }
        }

        /** Seed 1, 12 calls a minute, recordings of the calls' full length. */
        public static Options defaults() {
            return new Options(1, 12, WavRecording.MAX_SECONDS, Instant.MIN);
        }

        /**
         * The demo's: 6 calls a minute with recordings cut to 5 seconds (80 KB), so a demo left running
         * writes about 30 MB of audio an hour, and its first pass over the last two hours about 60 MB.
         */
        public static Options demo() {
            return defaults().withCallsPerMinute(6).withMaxRecordingSeconds(5);
        }

        public Options withSeed(long seed) {
            return new Options(seed, callsPerMinute, maxRecordingSeconds, openedAt);
        }

        public Options withCallsPerMinute(int callsPerMinute) {
            return new Options(seed, callsPerMinute, maxRecordingSeconds, openedAt);
        }

        public Options withMaxRecordingSeconds(int maxRecordingSeconds) {
            return new Options(seed, callsPerMinute, maxRecordingSeconds, openedAt);
        }

        public Options withOpenedAt(Instant openedAt) {
            return new Options(seed, callsPerMinute, maxRecordingSeconds, openedAt);
        }
    }
}
