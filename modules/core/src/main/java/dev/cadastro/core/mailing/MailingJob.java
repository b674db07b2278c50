package dev.cadastro.core.mailing;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.register.DataReference;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A mailing export job and its state machine: {@code processando} moves once, to {@code concluido}
 * ({@link #complete}) or to {@code falhou} ({@link #fail}); both are final.
 *
 * @param id the public {@code job_id}: random, unguessable
 * @param filtros the search as stored (MailingService.encode: the filters' canonical text)
 * @param leadsLimit the leads it may deliver: the quantity, or the filter's total when smaller, as held
 * @param outcome how it ended, when it did
 */
public record MailingJob(
        String id,
        AccountId account,
        String filtros,
        int quantidade,
        int leadsLimit,
        ExportFormat formato,
        Instant createdAt,
        State state,
        Optional<Outcome> outcome) {

    /** The states of the contract's table, by their API names. */
    public enum State {
        PROCESSANDO("processando"),
        CONCLUIDO("concluido"),
        FALHOU("falhou");

        private final String wire;

        State(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        public static State ofWire(String wire) {
            for (State s : values()) {
                if (s.wire.equals(wire)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("no mailing job state " + wire);
        }
    }

    /** How a job ended. */
    public sealed interface Outcome {
        Instant finishedAt();
    }

    /**
     * Done: {@code delivered} leads in a file under {@code fileKey} until {@code expiresAt}, {@code
     * charged} credits; {@code reference} is the month of the register generation the file was read from
     * (empty when that generation recorded none, or the job completed before it was recorded).
     */
    public record Delivered(
            int delivered,
            long charged,
            String fileKey,
            long fileBytes,
            Instant finishedAt,
            Instant expiresAt,
            Optional<DataReference> reference)
            implements Outcome {
        public Delivered {
            Objects.requireNonNull(reference, "reference");
        }
    }

    /** Failed: nothing charged, the hold released. */
    public record Failed(ErrorCode code, LocalizedText message, Instant finishedAt) implements Outcome {}

    public MailingJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(filtros, "filtros");
        Objects.requireNonNull(formato, "formato");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(outcome, "outcome");
        if (leadsLimit < 0 || leadsLimit > quantidade) {
            throw new IllegalArgumentException("leads limit " + leadsLimit + " outside 0.." + quantidade);
        }
        boolean consistent = switch (state) {
            case PROCESSANDO -> outcome.isEmpty();
            case CONCLUIDO -> outcome.orElse(null) instanceof Delivered;
            case FALHOU -> outcome.orElse(null) instanceof Failed;
        };
        if (!consistent) {
            throw new IllegalArgumentException("job " + id + " in state " + state + " with outcome " + outcome);
        }
    }

    /** A new job, {@code processando}. */
    public static MailingJob create(
            String id,
            AccountId account,
            String filtros,
            int quantidade,
            int leadsLimit,
            ExportFormat formato,
            Instant now) {
        return new MailingJob(
                id, account, filtros, quantidade, leadsLimit, formato, now, State.PROCESSANDO, Optional.empty());
    }

    /**
     * The job done.
     *
     * @throws IllegalStateException unless it is {@code processando}, or when more leads were delivered than held
     */
    public MailingJob complete(
            int delivered,
            long charged,
            String fileKey,
            long fileBytes,
            Instant now,
            Instant expiresAt,
            Optional<DataReference> reference) {
        requireProcessing("complete");
        if (delivered < 0 || delivered > leadsLimit) {
            throw new IllegalStateException(
                    "job " + id + " delivered " + delivered + " leads; it may deliver 0.." + leadsLimit);
        }
        return ended(State.CONCLUIDO, new Delivered(delivered, charged, fileKey, fileBytes, now, expiresAt, reference));
    }

    /**
     * The job failed.
     *
     * @throws IllegalStateException unless it is {@code processando}
     */
    public MailingJob fail(ErrorCode code, LocalizedText message, Instant now) {
        requireProcessing("fail");
        return ended(State.FALHOU, new Failed(code, message, now));
    }

    private MailingJob ended(State state, Outcome outcome) {
        return new MailingJob(
                id, account, filtros, quantidade, leadsLimit, formato, createdAt, state, Optional.of(outcome));
    }

    private void requireProcessing(String transition) {
        if (state != State.PROCESSANDO) {
            throw new IllegalStateException("job " + id + " is " + state.wire() + "; it cannot " + transition);
        }
    }

    /** The file name inside the ZIP. */
    public String entryName() {
        return "mailing-" + id + "." + formato.wire();
    }

    /** The ZIP's file name for downloads. */
    public String zipName() {
        return "mailing-" + id + "-" + formato.wire() + ".zip";
    }
}
