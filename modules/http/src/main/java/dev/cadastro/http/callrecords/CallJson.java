package dev.cadastro.http.callrecords;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.http.internal.Json;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * The call record on the wire: the {@code metadata} object that {@code GET /v1/ligacoes},
 * {@code GET /v1/ligacoes/{id}} and each push delivery carry, written the same way in all three.
 *
 * <p>Times are written {@code YYYY-MM-DDTHH:MM:SS} in Brasília time (UTC-3, a fixed offset), with no
 * offset and no fraction; the store keeps and compares them with full precision.
 * Every field of the call record is always present, null where the contract allows it, followed by one addition
 * (the contract lets an answer carry fields it does not list): {@code disponivel_em}, when the recording was archived and the call became
 * listable, written like the other times.
 */
public final class CallJson {
    /** Brasília time as the contract defines it: a fixed UTC-3 offset. */
    public static final ZoneOffset BRASILIA = ZoneOffset.ofHours(-3);

    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);

    private CallJson() {}

    /** {@code YYYY-MM-DDTHH:MM:SS} in UTC-3, the fraction of the second dropped (not rounded). */
    public static String wireTime(Instant t) {
        return WIRE.format(LocalDateTime.ofInstant(t.truncatedTo(ChronoUnit.SECONDS), BRASILIA));
    }

    /** Writes {@code "metadata": {...}} as a field of the object being written. */
    public static void writeMetadataField(JsonGenerator g, CallRecord call, String recordingUrl) throws IOException {
        g.writeFieldName("metadata");
        writeMetadata(g, call, recordingUrl);
    }

    /** Writes the metadata object of one call. */
    public static void writeMetadata(JsonGenerator g, CallRecord call, String recordingUrl) throws IOException {
        g.writeStartObject();
        writeFields(g, call, recordingUrl);
        g.writeEndObject();
    }

    /**
     * Writes the metadata object of one call as the feed ({@code ordem=disponibilidade}) gives it: the same
     * fields and one more, {@code atualizado_em}, the call's place in the feed (when it became listable in
     * this service, or was last reclassified), written like the other times.
     */
    public static void writeMetadata(JsonGenerator g, CallRecord call, String recordingUrl, Instant updatedAt)
            throws IOException {
        g.writeStartObject();
        writeFields(g, call, recordingUrl);
        g.writeStringField("atualizado_em", wireTime(updatedAt));
        g.writeEndObject();
    }

    private static void writeFields(JsonGenerator g, CallRecord call, String recordingUrl) throws IOException {
        g.writeStringField("id", call.id());
        g.writeStringField("id_ocorrencia", call.occurrenceId());
        nullable(g, "funcionario_id", call.agentId());
        nullable(g, "funcionario_nome", call.agentName());
        g.writeNullField("funcionario_email");
        g.writeStringField("url_gravacao", recordingUrl);
        g.writeStringField("datahistorico", wireTime(call.classifiedAt()));
        g.writeStringField("horario_inicio", wireTime(call.startedAt()));
        g.writeStringField("horario_fim", wireTime(call.endedAt()));
        g.writeNumberField("duracao_gravacao", call.durationSeconds());
        nullable(g, "ocorrencia_codigo", call.resultCode());
        g.writeStringField("ocorrencia_descricao", call.resultDescription());
        // An added field (objects may gain fields without a version change): when the call became listable, its
        // recording
        // archived, often minutes after datahistorico; a sync from the last datahistorico needs a margin.
        nullable(g, "disponivel_em", call.archived().map(CallJson::wireTime).orElse(null));
    }

    /** {@code {"metadata": {...}}}: the body of {@code GET /v1/ligacoes/{id}} and of a push delivery. */
    public static byte[] wrapped(CallRecord call, String recordingUrl) {
        return Json.bytes(512, g -> {
            g.writeStartObject();
            writeMetadataField(g, call, recordingUrl);
            g.writeEndObject();
        });
    }

    private static void nullable(JsonGenerator g, String name, String value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, value);
        }
    }
}
