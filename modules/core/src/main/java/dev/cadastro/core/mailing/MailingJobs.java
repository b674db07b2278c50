package dev.cadastro.core.mailing;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.work.WorkQueue;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: mailing jobs in the store, and the queue the export workers claim them from. Each state
 * change commits the ledger and the job row in one transaction.
 */
public interface MailingJobs extends WorkQueue<MailingJob> {

    /**
     * Places the hold and inserts the job, together.
     *
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the available balance does not
     *     cover the hold; then no job exists
     */
    MailingJob create(MailingJob job, HoldRequest hold);

    /** The job of that account, or empty (also for another account's job). */
    Optional<MailingJob> find(AccountId account, String id);

    /** The job, whatever its account (operators). */
    Optional<MailingJob> find(String id);

    /**
     * Moves a processing job to {@code done}, posting its hold for {@code done}'s charge, together; only
     * while {@code owner} holds its lease.
     *
     * @return false when the job was no longer this owner's or no longer processing (nothing changed)
     */
    boolean complete(MailingJob done, String owner);

    /**
     * Moves a processing job to {@code failed}, releasing its hold, together.
     *
     * @param owner the lease holder, or null for an operator's decision
     * @return false when the job had already ended (or was no longer this owner's)
     */
    boolean fail(MailingJob failed, String owner);

    /** The newest jobs, of one account or all, for operators. */
    List<MailingJob> list(Optional<AccountId> account, int limit);

    /** Jobs done whose file expired before {@code now} and was not yet removed. */
    List<MailingJob> expiredFiles(Instant now, int limit);

    /** Records that a job's file was removed. */
    void fileRemoved(String id, Instant now);

    /**
     * Of {@code keys} (export file keys, {@code mailing/<job>-<attempt>.zip}), those a job names as its
     * file, and those of a job still processing (an attempt may yet complete with its file); the others
     * belong to no job.
     */
    java.util.Set<String> filesInUse(java.util.Collection<String> keys);

    /**
     * Runs {@code work} unless another server of the fleet runs the same {@code task} now (a PostgreSQL
     * advisory lock held for the work's duration); returns whether it ran.
     */
    boolean runAlone(String task, Runnable work);
}
