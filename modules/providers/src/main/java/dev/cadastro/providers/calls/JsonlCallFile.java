package dev.cadastro.providers.calls;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.cadastro.core.calls.CallIngest;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.files.FileStore;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A file of calls exported from a real exchange, read whole and checked before anything is imported:
 * JSON Lines (UTF-8, one object a line, blank lines skipped) with the wire's field names
 * plus what the exchange knows and the wire omits.
 *
 * <table>
 *   <caption>Fields</caption>
 *   <tr><th>field</th><th>rule</th></tr>
 *   <tr><td>{@code id}</td><td>required; 1 to 64 letters, digits, {@code . - _}, without {@code ..}; once in the file</td></tr>
 *   <tr><td>{@code id_ocorrencia}</td><td>string, 1 to 64 characters; {@code id} when absent or null</td></tr>
 *   <tr><td>{@code funcionario_id}, {@code funcionario_nome}</td><td>string or null (null: the agent left)</td></tr>
 *   <tr><td>{@code agente}</td><td>required: the agent's login</td></tr>
 *   <tr><td>{@code fila}</td><td>required: the queue's name</td></tr>
 *   <tr><td>{@code datahistorico}</td><td>required date and time</td></tr>
 *   <tr><td>{@code horario_inicio}</td><td>required date and time, not after {@code datahistorico}</td></tr>
 *   <tr><td>{@code duracao_gravacao}</td><td>required whole seconds, 0 to 86,400</td></tr>
 *   <tr><td>{@code ocorrencia_codigo}</td><td>string or null (receptive queues have no catalogue)</td></tr>
 *   <tr><td>{@code ocorrencia_descricao}</td><td>required, not blank</td></tr>
 *   <tr><td>texts</td><td>at most {@value dev.cadastro.core.calls.CallIngest#MAX_TEXT} characters</td></tr>
 *   <tr><td>{@code gravacao}</td><td>the WAV file (PCM 16-bit, 8 kHz, mono, nothing after its audio), relative
 *       to the file's folder and inside it once every link is resolved; not a symbolic link itself</td></tr>
 *   <tr><td>{@code arquivada_em}</td><td>date and time the recording was archived, not before {@code horario_inicio}</td></tr>
 * </table>
 *
 * Dates and times are ISO 8601 ({@code 2026-11-24T10:15:30.123456}) with an offset or without one
 * (then Brasília time, UTC-3); fractions of a second are kept to the microsecond. A call is archived
 * only when it has both {@code gravacao} and {@code arquivada_em}; otherwise its recording is still
 * being archived and the file named, if any, is neither checked nor copied. Other fields, such as
 * {@code horario_fim} (derived) or {@code url_gravacao} (signed by this service), are ignored.
 */
public final class JsonlCallFile {
    /** The longest call accepted, in seconds: the ingest's limit, a day. */
    public static final int MAX_DURATION_SECONDS = CallIngest.MAX_DURATION_SECONDS;

    private static final ZoneOffset BRASILIA = ZoneOffset.ofHours(-3);
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            .optionalStart()
            .appendOffsetId()
            .optionalEnd()
            .toFormatter(Locale.ROOT)
            .withResolverStyle(java.time.format.ResolverStyle.STRICT)
            .withChronology(java.time.chrono.IsoChronology.INSTANCE);
    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** The file's name of each field {@link CallIngest#check} names. */
    private static final Map<String, String> FILE_FIELDS = Map.ofEntries(
            Map.entry("occurrenceId", "id_ocorrencia"),
            Map.entry("agentId", "funcionario_id"),
            Map.entry("agentName", "funcionario_nome"),
            Map.entry("agentLogin", "agente"),
            Map.entry("queue", "fila"),
            Map.entry("resultCode", "ocorrencia_codigo"),
            Map.entry("resultDescription", "ocorrencia_descricao"),
            Map.entry("classifiedAt", "datahistorico"),
            Map.entry("startedAt", "horario_inicio"),
            Map.entry("durationSeconds", "duracao_gravacao"),
            Map.entry("archivedAt", "arquivada_em"),
            Map.entry("recordingKey", "gravacao"));

    /** One call of the file, and the recording to copy when it is archived. */
    public record Entry(int line, CallRecord call, Optional<Path> recording) {}

    private final Path file;
    private final List<Entry> entries;

    private JsonlCallFile(Path file, List<Entry> entries) {
        this.file = file;
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads and checks every line of {@code file}, for the integration numbered {@code integrationId}.
     *
     * @throws CallFileException naming the first line that breaks a rule
     * @throws IOException when the file cannot be read
     */
    public static JsonlCallFile read(Path file, long integrationId) throws IOException {
        Objects.requireNonNull(file, "file");
        Path folder = file.toAbsolutePath().getParent();
        List<Entry> entries = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        // Lines are split on bytes and decoded one by one, so a bad byte is blamed on its own line.
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
            int number = 0;
            for (int b = in.read(); ; b = in.read()) {
                if (b != '\n' && b != -1) {
                    bytes.write(b);
                    continue;
                }
                if (b == -1 && bytes.size() == 0) {
                    break;
                }
                number++;
                String text;
                try {
                    text = decoder.decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
                } catch (CharacterCodingException e) {
                    throw new CallFileException(number, null, "is not UTF-8 text");
                }
                bytes.reset();
                if (number == 1 && text.startsWith("\uFEFF")) {
                    text = text.substring(1);
                }
                if (!text.isBlank()) {
                    Entry entry = new Line(number, fields(number, text)).entry(integrationId, folder);
                    Integer before = seen.putIfAbsent(entry.call().id(), number);
                    if (before != null) {
                        throw new CallFileException(
                                number,
                                "id",
                                "'" + entry.call().id() + "' repeats line " + before + " (one line a call)");
                    }
                    entries.add(entry);
                }
                if (b == -1) {
                    break;
                }
            }
        }
        return new JsonlCallFile(file, entries);
    }

    public Path file() {
        return file;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** The calls, in the file's order. */
    public List<CallRecord> calls() {
        return entries.stream().map(Entry::call).toList();
    }

    /**
     * Copies every archived call's recording into {@code store} under its key, replacing what is there
     * (so a second import is harmless). Call this before the calls are ingested: a call is never listed
     * before its recording can be served. Returns how many files were copied.
     */
    public int copyRecordings(FileStore store) throws IOException {
        int copied = 0;
        for (Entry e : entries) {
            if (e.recording().isEmpty()) {
                continue;
            }
            Path path = e.recording().get();
            // One open file, not followed through a link, checked and copied: what is copied is what was
            // checked, even if the name is pointed elsewhere after the file was read.
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                WavRecording.Check check = checkRecording(channel);
                if (!check.ok()) {
                    throw new CallFileException(e.line(), "gravacao", "'" + path + "' " + check.problem());
                }
                try (FileStore.Upload upload = store.create(e.call().recordingKey())) {
                    copy(channel, check.end(), upload.stream());
                    upload.commit();
                }
            }
            copied++;
        }
        return copied;
    }

    /** Checks the recording open on {@code channel} from its first byte; the channel stays open. */
    private static WavRecording.Check checkRecording(FileChannel channel) throws IOException {
        channel.position(0);
        InputStream in = Channels.newInputStream(channel); // not closed: closing it would close the channel
        return WavRecording.check(new BufferedInputStream(in, 4096), channel.size());
    }

    /** Copies exactly the first {@code length} bytes of the channel. */
    private static void copy(FileChannel channel, long length, OutputStream out) throws IOException {
        WritableByteChannel target = Channels.newChannel(out);
        long done = 0;
        while (done < length) {
            long n = channel.transferTo(done, length - done, target);
            if (n <= 0) {
                throw new IOException("the recording ended after " + done + " of its " + length + " bytes");
            }
            done += n;
        }
    }

    /**
     * Imports the file: for each batch of {@code batchSize} calls in the file's order, copies the
     * archived calls' recordings, then ingests the batch (one transaction each). Every line was checked
     * when the file was read, so a failure here is the store's or the files folder's: the batches before
     * it stay committed, and importing again is the remedy. Run again, it changes nothing (ingest is
     * idempotent by id); a line whose {@code datahistorico} is later than the stored one is a
     * reclassification.
     */
    public Imported importInto(CallStore store, FileStore recordings, int batchSize) throws IOException {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(recordings, "recordings");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize " + batchSize + " must be at least 1");
        }
        CallStore.IngestResult total = CallStore.IngestResult.NOTHING;
        int copied = 0;
        for (int from = 0; from < entries.size(); from += batchSize) {
            List<Entry> batch = entries.subList(from, Math.min(entries.size(), from + batchSize));
            copied += new JsonlCallFile(file, batch).copyRecordings(recordings);
            total = total.plus(store.ingest(batch.stream().map(Entry::call).toList()));
        }
        return new Imported(entries.size(), copied, total);
    }

    /** What {@link #importInto} did: the calls read, the recordings copied, and what the store did. */
    public record Imported(int calls, int recordingsCopied, CallStore.IngestResult result) {}

    /** The line's top-level fields: strings, numbers as text, booleans, null, or a marker for objects and arrays. */
    private static Map<String, Value> fields(int line, String text) {
        Map<String, Value> fields = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new CallFileException(line, null, "is not a JSON object");
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                Value value = switch (v) {
                    case VALUE_STRING -> new Value(Kind.STRING, p.getText());
                    case VALUE_NUMBER_INT -> new Value(Kind.INTEGER, p.getText());
                    case VALUE_NUMBER_FLOAT -> new Value(Kind.DECIMAL, p.getText());
                    case VALUE_TRUE, VALUE_FALSE -> new Value(Kind.BOOLEAN, p.getText());
                    case VALUE_NULL -> new Value(Kind.NULL, null);
                    case START_OBJECT, START_ARRAY -> {
                        p.skipChildren();
                        yield new Value(v == JsonToken.START_OBJECT ? Kind.OBJECT : Kind.ARRAY, null);
                    }
                    default -> throw new CallFileException(line, name, "has an unexpected " + v);
                };
                if (fields.put(name, value) != null) {
                    throw new CallFileException(line, name, "appears twice");
                }
            }
            if (p.nextToken() != null) {
                throw new CallFileException(line, null, "has more than one JSON value (one object a line)");
            }
        } catch (JsonProcessingException e) {
            throw new CallFileException(line, null, "is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CallFileException(line, null, "is not JSON: " + e.getMessage());
        }
        return fields;
    }

    private enum Kind {
        STRING("a string"),
        INTEGER("a number"),
        DECIMAL("a number"),
        BOOLEAN("a boolean"),
        NULL("null"),
        OBJECT("an object"),
        ARRAY("an array");

        final String described;

        Kind(String described) {
            this.described = described;
        }
    }

    private record Value(Kind kind, String text) {}

    /** One line's fields, checked one by one; each failure names the line, the field and the rule. */
    private record Line(int number, Map<String, Value> fields) {
        Entry entry(long integrationId, Path folder) {
            String id = required("id");
            if (!CallRecord.validId(id)) {
                fail(
                        "id",
                        "'" + id + "' must be 1 to " + CallRecord.MAX_ID_LENGTH
                                + " letters, digits, '.', '-' or '_', without '..'");
            }
            String occurrence = optional("id_ocorrencia");
            if (occurrence != null && (occurrence.isBlank() || occurrence.length() > CallRecord.MAX_ID_LENGTH)) {
                fail("id_ocorrencia", "must be 1 to " + CallRecord.MAX_ID_LENGTH + " characters, not blank");
            }
            String agentId = optional("funcionario_id");
            String agentName = optional("funcionario_nome");
            String login = required("agente");
            String queue = required("fila");
            Instant classified = time("datahistorico", true);
            Instant started = time("horario_inicio", true);
            if (started.isAfter(classified)) {
                fail(
                        "horario_inicio",
                        "'" + fields.get("horario_inicio").text() + "' must not be after datahistorico '"
                                + fields.get("datahistorico").text() + "'");
            }
            int duration = duration();
            String code = optional("ocorrencia_codigo");
            String description = required("ocorrencia_descricao");
            String recording = optional("gravacao");
            Instant archived = time("arquivada_em", false);
            Path file = null;
            if (recording != null && archived != null) {
                file = recording(folder, recording);
            }
            CallRecord call = new CallRecord(
                    integrationId,
                    id,
                    occurrence == null ? id : occurrence,
                    agentId,
                    login,
                    agentName,
                    queue,
                    code,
                    description,
                    classified,
                    started,
                    duration,
                    file == null ? null : archived,
                    WavRecording.key(integrationId, id));
            // What the store would refuse (text lengths, an archive before the call started) is named here,
            // before anything is written, with the file's field names.
            CallIngest.check(call).ifPresent(v -> fail(FILE_FIELDS.getOrDefault(v.field(), v.field()), v.message()));
            return new Entry(number, call, Optional.ofNullable(file));
        }

        private String required(String name) {
            Value v = fields.get(name);
            if (v == null || v.kind() == Kind.NULL) {
                fail(name, "is required");
            }
            String s = string(name, v);
            if (s.isBlank()) {
                fail(name, "must not be blank");
            }
            return s;
        }

        private String optional(String name) {
            Value v = fields.get(name);
            return v == null || v.kind() == Kind.NULL ? null : string(name, v);
        }

        private String string(String name, Value v) {
            if (v.kind() != Kind.STRING) {
                fail(name, "must be a string; got " + v.kind().described);
            }
            return v.text();
        }

        private Instant time(String name, boolean required) {
            String text = required ? required(name) : optional(name);
            if (text == null) {
                return null;
            }
            try {
                TemporalAccessor t = DATE_TIME.parse(text);
                LocalDateTime local = LocalDateTime.from(t);
                ZoneOffset offset = t.isSupported(ChronoField.OFFSET_SECONDS) ? ZoneOffset.from(t) : BRASILIA;
                return local.toInstant(offset);
            } catch (DateTimeException e) {
                fail(
                        name,
                        "'" + text + "' must be an ISO 8601 date and time such as 2026-11-24T10:15:30,"
                                + " with or without an offset (without one: Brasília time, UTC-3)");
                return null;
            }
        }

        private int duration() {
            Value v = fields.get("duracao_gravacao");
            if (v == null || v.kind() == Kind.NULL) {
                fail("duracao_gravacao", "is required");
            }
            long seconds = -1;
            if (v.kind() == Kind.INTEGER) {
                try {
                    seconds = Long.parseLong(v.text());
                } catch (NumberFormatException e) {
                    seconds = -1;
                }
            }
            if (v.kind() != Kind.INTEGER || seconds < 0 || seconds > MAX_DURATION_SECONDS) {
                fail(
                        "duracao_gravacao",
                        (v.text() == null ? v.kind().described : v.text())
                                + " must be a whole number of seconds from 0 to " + MAX_DURATION_SECONDS);
            }
            return (int) seconds;
        }

        private Path recording(Path folder, String name) {
            Path relative;
            try {
                relative = Path.of(name);
            } catch (java.nio.file.InvalidPathException e) {
                fail("gravacao", "'" + name + "' is not a file name");
                return null;
            }
            if (relative.isAbsolute()) {
                fail("gravacao", "'" + name + "' must be relative to the file's folder " + folder);
            }
            Path file = folder.resolve(relative).normalize();
            if (Files.isSymbolicLink(file)) {
                fail("gravacao", "'" + name + "' is a symbolic link; recordings must be plain files in " + folder);
            }
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                fail("gravacao", "'" + name + "' is not a file in " + folder);
            }
            Path real;
            try {
                // Resolved through every link of every folder on the way, then required under the folder's
                // own real path: '..' segments and linked folders cannot reach outside it.
                real = file.toRealPath();
                if (!real.startsWith(folder.toRealPath())) {
                    fail("gravacao", "'" + name + "' is outside the file's folder " + folder);
                }
            } catch (IOException e) {
                fail("gravacao", "'" + name + "' cannot be read: " + e.getMessage());
                return null;
            }
            try (FileChannel channel = FileChannel.open(real, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                String problem = checkRecording(channel).problem();
                if (problem != null) {
                    fail("gravacao", "'" + name + "' " + problem + " (recordings are WAV, PCM 16-bit, 8 kHz, mono)");
                }
            } catch (IOException e) {
                fail("gravacao", "'" + name + "' cannot be read: " + e.getMessage());
            }
            return real;
        }

        private void fail(String field, String rule) {
            throw new CallFileException(number, field, rule);
        }
    }
}
