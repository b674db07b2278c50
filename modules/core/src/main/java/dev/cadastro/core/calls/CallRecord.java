package dev.cadastro.core.calls;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * One answered and classified call as the store keeps it, with what the service needs
 * besides the wire fields: the agent's login (the {@code agente} filter), the queue ({@code fila}),
 * when the recording was archived, and the recording's key in the recording store.
 *
 * <p>Instants are cut to microseconds on construction, the precision the store keeps, so a record
 * compares equal to itself after a round trip and the list's keyset compares exact values.
 *
 * @param id the call protocol: unique within the integration, immutable, never reused; 1 to {@value
 *     #MAX_ID_LENGTH} letters, digits, {@code .}, {@code -} or {@code _}, never containing {@code ..}
 *     (it names the recording's file, so it must be a plain file-name segment)
 * @param occurrenceId the attendance id ({@code id_ocorrencia}); equal to {@code id} today
 * @param agentId the internal agent id, or null when the agent left the registry
 * @param agentLogin the agent's login at the exchange
 * @param agentName the name formatted from the login, or null when the agent left the registry
 * @param queue the queue the call came through
 * @param resultCode the queue's code for the result, or null (receptive queues have no catalogue)
 * @param resultDescription the result the agent recorded ({@code ocorrencia_descricao})
 * @param classifiedAt when the agent registered the result ({@code datahistorico})
 * @param startedAt when the call was answered and the recording started
 * @param durationSeconds the recording's length
 * @param archivedAt when the recording was archived, or null while it is being archived
 * @param recordingKey the recording's key in the recording store (relative, e.g. {@code calls/7/ABC.wav})
 */
public record CallRecord(
        long integrationId,
        String id,
        String occurrenceId,
        String agentId,
        String agentLogin,
        String agentName,
        String queue,
        String resultCode,
        String resultDescription,
        Instant classifiedAt,
        Instant startedAt,
        int durationSeconds,
        Instant archivedAt,
        String recordingKey) {

    /** The longest call id accepted. */
    public static final int MAX_ID_LENGTH = 64;

    public CallRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(occurrenceId, "occurrenceId");
        Objects.requireNonNull(agentLogin, "agentLogin");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(resultDescription, "resultDescription");
        Objects.requireNonNull(classifiedAt, "classifiedAt");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(recordingKey, "recordingKey");
        if (!validId(id)) {
            throw new IllegalArgumentException("call id must be 1 to " + MAX_ID_LENGTH
                    + " letters, digits, '.', '-' or '_', without '..'; got " + id.length() + " characters");
        }
        if (durationSeconds < 0) {
            throw new IllegalArgumentException("durationSeconds " + durationSeconds + " is negative");
        }
        classifiedAt = classifiedAt.truncatedTo(ChronoUnit.MICROS);
        startedAt = startedAt.truncatedTo(ChronoUnit.MICROS);
        archivedAt = archivedAt == null ? null : archivedAt.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Whether {@code id} is an acceptable call id: safe in a path segment and in a file name, so no
     * {@code ..} anywhere in it (the recording's key is built from the id, and a key never holds {@code ..}).
     */
    public static boolean validId(String id) {
        return id != null
                && id.matches("[A-Za-z0-9._-]{1," + MAX_ID_LENGTH + "}")
                && !id.equals(".")
                && !id.contains("..");
    }

    /** The end of the conversation: start plus duration ({@code horario_fim}). */
    public Instant endedAt() {
        return startedAt.plus(Duration.ofSeconds(durationSeconds));
    }

    /** Whether the recording is archived, so the call is listed and pushed. */
    public boolean ready() {
        return archivedAt != null;
    }

    public Optional<Instant> archived() {
        return Optional.ofNullable(archivedAt);
    }

    /** Its place in the list's order. */
    public CallPosition position() {
        return new CallPosition(classifiedAt, id);
    }
}
