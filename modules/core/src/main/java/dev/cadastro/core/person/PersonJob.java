package dev.cadastro.core.person;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Purpose;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An async person lookup and its transitions. The store
 * applies each transition as one conditional statement, so the type and the table agree on what may
 * follow what:
 *
 * <pre>
 *   Pending --claim--> Processing --deliver--> Delivered   (charged once, result handed to that read)
 *                      Processing --release--> Pending     (provider down, no balance, audit down)
 *                      Processing --noData---> NoData      (nothing charged)
 *   Pending, Processing --(24 h unread)--> expired         (answers 404)
 * </pre>
 *
 * A Processing job whose lease ran out (its server died mid-lookup) may be claimed again. The subject
 * is kept only while the lookup may still run: a Delivered or NoData job has none.
 *
 * @param subject what to look up; empty once the job is finished (personal data is not kept)
 * @param justification the justification chosen at creation, recorded when the lookup runs
 * @param expiresAt when an unread job is forgotten
 */
public record PersonJob(
        String id,
        AccountId account,
        Optional<Subject> subject,
        Purpose purpose,
        Justification justification,
        State state,
        Instant createdAt,
        Instant expiresAt) {
    /** How long an unread job waits for its first read. */
    public static final Duration TERM = Duration.ofHours(24);

    public PersonJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(justification, "justification");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (state.finished() && subject.isPresent()) {
            throw new IllegalArgumentException("a finished job keeps no subject");
        }
        if (!state.finished() && subject.isEmpty()) {
            throw new IllegalArgumentException("an unfinished job needs its subject");
        }
    }

    /** A new job, waiting for its first read. */
    public static PersonJob create(
            String id, AccountId account, Subject subject, Purpose purpose, Justification justification, Instant now) {
        return new PersonJob(
                id, account, Optional.of(subject), purpose, justification, new State.Pending(), now, now.plus(TERM));
    }

    /** The states; {@link #wire()} is what {@code GET /pessoas/jobs/{id}} says. */
    public sealed interface State {
        String wire();

        default boolean finished() {
            return false;
        }

        /** Created, not yet read. */
        record Pending() implements State {
            @Override
            public String wire() {
                return "pendente";
            }
        }

        /** A read is running the lookup under a claim until {@code leaseUntil}. */
        record Processing(String claim, Instant leaseUntil) implements State {
            public Processing {
                Objects.requireNonNull(claim, "claim");
                Objects.requireNonNull(leaseUntil, "leaseUntil");
            }

            @Override
            public String wire() {
                return "processando";
            }
        }

        /** A finished job, {@code concluido} on the wire, whatever its outcome. */
        sealed interface Finished extends State {
            /** When it finished. */
            Instant at();

            @Override
            default String wire() {
                return "concluido";
            }

            @Override
            default boolean finished() {
                return true;
            }
        }

        /** The lookup ran, was charged and handed to the read that ran it; the result is gone. */
        record Delivered(Instant at) implements Finished {}

        /** The bureau had nothing under the purpose; nothing was charged. */
        record NoData(Instant at) implements Finished {}
    }

    /** Whether an unfinished job passed its term unread. */
    public boolean expired(Instant now) {
        return !state.finished() && !now.isBefore(expiresAt);
    }

    /** Whether a read now may claim it: pending, or processing under a lease that ran out; not expired. */
    public boolean claimable(Instant now) {
        if (expired(now)) {
            return false;
        }
        return switch (state) {
            case State.Pending p -> true;
            case State.Processing p -> !now.isBefore(p.leaseUntil());
            case State.Delivered d -> false;
            case State.NoData n -> false;
        };
    }

    /** Pending (or a lapsed claim) to Processing under a new claim. */
    public PersonJob claim(String claim, Instant now, Duration lease) {
        if (!claimable(now)) {
            throw new IllegalStateException("job " + id + " in state " + state + " cannot be claimed at " + now);
        }
        return with(subject, new State.Processing(claim, now.plus(lease)));
    }

    /** Processing back to Pending: the lookup could not run to the end and nothing was charged. */
    public PersonJob release(String claim) {
        requireClaim(claim);
        return with(subject, new State.Pending());
    }

    /** Processing to Delivered: charged, recorded, handed over; the subject is erased. */
    public PersonJob deliver(String claim, Instant now) {
        requireClaim(claim);
        return with(Optional.empty(), new State.Delivered(now));
    }

    /** Processing to NoData: nothing to deliver, nothing charged; the subject is erased. */
    public PersonJob noData(String claim, Instant now) {
        requireClaim(claim);
        return with(Optional.empty(), new State.NoData(now));
    }

    private void requireClaim(String claim) {
        if (!(state instanceof State.Processing p) || !p.claim().equals(claim)) {
            throw new IllegalStateException("job " + id + " in state " + state + " is not under claim " + claim);
        }
    }

    private PersonJob with(Optional<Subject> subject, State state) {
        return new PersonJob(id, account, subject, purpose, justification, state, createdAt, expiresAt);
    }
}
