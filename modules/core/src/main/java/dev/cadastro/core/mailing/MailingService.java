package dev.cadastro.core.mailing;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.core.work.Claimed;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Use case: mailing exports.
 *
 * <ul>
 *   <li>{@link #create}: scope {@code mailing:export}; counts the filter, holds min(quantidade, total)
 *       credits and inserts the job in one transaction ({@code SEM_CREDITOS} and no job when the
 *       available balance does not cover it).
 *   <li>{@link #process}: what a worker does with a claimed job: the first leads of the filter, from one
 *       register generation, written as a ZIP through the file store, then completion (charge of the
 *       leads delivered, the rest of the hold released, the job {@code concluido}) in one transaction.
 *       A failure releases the whole hold. A job whose server died is run again from the start by the
 *       next claim; its completion charges once, under the hold's key.
 *   <li>{@link #estimate}: scope {@code mailing:read}; the count and the hold {@link #create} would
 *       place, computed by the same code, never placed.
 *   <li>{@link #status} and {@link #download}: scope {@code mailing:read}; another account's job is not
 *       found, like an unknown one; they never charge.
 * </ul>
 */
public final class MailingService {
    private static final System.Logger LOG = System.getLogger(MailingService.class.getName());

    /** A job claimed this many times without ending fails (a poison job must not loop forever). */
    public static final int MAX_ATTEMPTS = 3;

    /** The reference of the hold an estimate computes and never places. */
    private static final String ESTIMATE_REFERENCE = "estimativa";

    private final RegisterSearch register;
    private final MailingJobs jobs;
    private final FileStore files;
    private final LeadFileWriter writer;
    private final CostRules costs;
    private final Clock clock;
    private final RandomGenerator random;
    private final Duration retention;
    private final Runnable created;

    /**
     * @param random for job ids: a {@link java.security.SecureRandom} in production (ids are unguessable)
     * @param retention how long a finished export's file is kept
     * @param created called after a job was created (to wake an idle worker of this server)
     */
    public MailingService(
            RegisterSearch register,
            MailingJobs jobs,
            FileStore files,
            LeadFileWriter writer,
            CostRules costs,
            Clock clock,
            RandomGenerator random,
            Duration retention,
            Runnable created) {
        this.register = Objects.requireNonNull(register, "register");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.files = Objects.requireNonNull(files, "files");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.created = Objects.requireNonNull(created, "created");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("file retention " + retention + " must be positive");
        }
    }

    /** How long a finished export's file is kept. */
    public Duration retention() {
        return retention;
    }

    /**
     * Creates a job: checks the scope and the filters, holds the credits, records the job.
     *
     * @param reference unique to this request, or the same for every attempt of one idempotent request
     *     ({@code idem.<id>}): the hold's key derives from it, so a retry of a creation that committed
     *     returns that job instead of making and charging a second one
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}, {@code SEM_CREDITOS}
     */
    public MailingJob create(Principal principal, MailingRequest request, String reference) {
        principal.require(Scope.MAILING_EXPORT);
        RegisterQuery filters = request.filtros();
        CountResult count = count(request);
        int limit = leadsLimit(count, request.quantidade());
        String id = newId();
        Instant now = clock.instant();
        MailingJob job = MailingJob.create(
                id,
                principal.accountId(),
                encode(filters)
                        + request.alteracoes()
                                .map(MailingService::encodeChanges)
                                .orElse(""),
                request.quantidade(),
                limit,
                request.formato(),
                now);
        HoldRequest hold = hold(principal, reference, limit);
        MailingJob saved = jobs.create(job, hold);
        created.run();
        return saved;
    }

    /**
     * What {@link #create} would do with this request, without doing it: the filter's count (the same
     * count a count-only search answers) and the credits the export's hold would take, computed by the
     * same rule as the real hold. Free: the ledger is not touched and no job is made.
     *
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO} (the key lacks {@code
     *     mailing:read}), or {@code PARAMETRO_INVALIDO} from the register
     */
    public MailingEstimate estimate(Principal principal, MailingRequest request) {
        principal.require(Scope.MAILING_READ);
        CountResult count = count(request);
        int limit = leadsLimit(count, request.quantidade());
        return new MailingEstimate(
                count,
                request.quantidade(),
                hold(principal, ESTIMATE_REFERENCE, limit).amount());
    }

    /** The most leads an export may deliver: min(quantidade, total), or quantidade when the total is an estimate. */
    private static int leadsLimit(CountResult count, int quantidade) {
        // An estimate may be below the truth: hold the quantity then, so the hold always covers delivery.
        long total = count.aproximado() ? quantidade : count.total();
        return (int) Math.min(quantidade, total);
    }

    /** The hold of an export of at most {@code leadsLimit} leads (at least 1 credit: a hold is never empty). */
    private HoldRequest hold(Principal principal, String reference, int leadsLimit) {
        return costs.mailingHold(principal.accountId(), reference, Math.max(1, leadsLimit));
    }

    /**
     * The job of the principal's account.
     *
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}, {@code NAO_ENCONTRADO} (unknown,
     *     or another account's)
     */
    public MailingJob status(Principal principal, String id) {
        principal.require(Scope.MAILING_READ);
        return jobs.find(principal.accountId(), id).orElseThrow(() -> notFound(id));
    }

    /**
     * The finished export's file, opened.
     *
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}, {@code NAO_ENCONTRADO} (unknown,
     *     another account's, not {@code concluido} yet, failed, or its file expired)
     */
    public Download download(Principal principal, String id) throws IOException {
        MailingJob job = status(principal, id);
        if (!(job.outcome().orElse(null) instanceof MailingJob.Delivered d)) {
            throw new NotFoundException(
                    job.state() == MailingJob.State.PROCESSANDO
                            ? Message.MAILING_FILE_PROCESSING.with(id)
                            : Message.MAILING_FILE_FAILED.with(id));
        }
        if (!d.expiresAt().isAfter(clock.instant())) {
            throw new NotFoundException(Message.MAILING_FILE_EXPIRED_AT.with(id, SaoPauloTime.format(d.expiresAt())));
        }
        FileStore.Download file =
                files.open(d.fileKey()).orElseThrow(() -> new NotFoundException(Message.MAILING_FILE_EXPIRED.with(id)));
        return new Download(job, file);
    }

    /** An opened export file and its job; close it. */
    public record Download(MailingJob job, FileStore.Download file) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** Runs one claimed job to its end (the worker's handler); only the lease holder may end it. */
    public void process(Claimed<MailingJob> claimed) {
        MailingJob job = claimed.work();
        if (claimed.attempt() > MAX_ATTEMPTS) {
            jobs.fail(
                    job.fail(
                            ErrorCode.ERRO_INTERNO,
                            Message.MAILING_INTERRUPTED.with(claimed.attempt() - 1),
                            clock.instant()),
                    claimed.owner());
            return;
        }
        // A key per attempt: a late attempt that lost its lease never overwrites the file of the one that won.
        String key = "mailing/" + job.id() + "-" + claimed.attempt() + ".zip";
        long delivered;
        long bytes;
        // The month the export read, kept on the job: its status names it whatever is published next.
        Optional<DataReference> month;
        try (FileStore.Upload upload = files.create(key)) {
            try (LeadFileWriter.LeadSink sink = writer.open(job.formato(), job.entryName(), upload.stream())) {
                // The sink takes the records, and the month the export itself read, handed over by the
                // generation it acquired.
                Optional<ChangeQuery> changes = decodeChanges(job.filtros());
                delivered = changes.isPresent()
                        ? register.exportChanges(changes.get(), job.leadsLimit(), sink)
                        : register.export(decode(job.filtros()), job.leadsLimit(), sink);
                month = sink.reference();
            }
            bytes = upload.commit();
        } catch (IOException | RuntimeException e) {
            if (Thread.interrupted()) {
                // Cleared first: the hand-back's own I/O would fail on an interrupted thread.
                try {
                    LOG.log(System.Logger.Level.INFO, "mailing job {0} interrupted by a stop; handed back", job.id());
                    jobs.handBack(claimed.id(), claimed.owner());
                } finally {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            LOG.log(System.Logger.Level.ERROR, "mailing job " + job.id() + " failed; its hold is released", e);
            jobs.fail(
                    job.fail(ErrorCode.ERRO_INTERNO, Message.MAILING_NOT_WRITTEN.with(), clock.instant()),
                    claimed.owner());
            return;
        }
        Instant now = clock.instant();
        MailingJob done = job.complete(
                (int) delivered, costs.mailingCost(delivered), key, bytes, now, now.plus(retention), month);
        if (!jobs.complete(done, claimed.owner())) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "mailing job {0} was no longer this server''s when it finished; the other attempt ends it",
                    job.id());
            try {
                files.delete(key);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "removing the unused file " + key + " failed", e);
            }
        }
    }

    /**
     * An operator fails a job that is still processing (stuck, or unwanted), releasing its hold.
     *
     * @return false when the job had already ended
     * @throws NotFoundException when no job has that id
     */
    public boolean failByOperator(String id, String reason) {
        return failByOperator(jobs, id, reason, clock.instant());
    }

    /** {@link #failByOperator(String, String)} on a store alone (the admin command line). */
    public static boolean failByOperator(MailingJobs jobs, String id, String reason, Instant now) {
        MailingJob job = jobs.find(id)
                .orElseThrow(() -> new NotFoundException(Message.MAILING_JOB_UNKNOWN.with(Texts.quote(id))));
        if (job.state() != MailingJob.State.PROCESSANDO) {
            return false;
        }
        return jobs.fail(job.fail(ErrorCode.ERRO_INTERNO, Message.MAILING_FAILED_BY_OPERATOR.with(reason), now), null);
    }

    /** Removes the files of exports past their retention; returns how many. */
    public int removeExpiredFiles() {
        int removed = 0;
        Instant now = clock.instant();
        for (MailingJob job : jobs.expiredFiles(now, 1000)) {
            if (job.outcome().orElse(null) instanceof MailingJob.Delivered d) {
                try {
                    files.delete(d.fileKey());
                    jobs.fileRemoved(job.id(), now);
                    removed++;
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "removing the file of mailing job " + job.id() + " failed", e);
                }
            }
        }
        return removed;
    }

    /**
     * How old a file under {@value #FILES} must be before the orphan sweep may delete it: far longer than
     * an upload's commit takes to reach its job's completion.
     */
    public static final Duration ORPHAN_AGE = Duration.ofHours(1);

    /** The prefix of every export file in the file store. */
    public static final String FILES = "mailing/";

    /**
     * Deletes the export files no job names (an upload whose job's completion failed, or was never
     * known to have committed: the file is never deleted on that error, since the completion may have
     * committed) once they are older than {@link #ORPHAN_AGE}. One server of a fleet sweeps at a time.
     *
     * @return the keys deleted; empty when another server was sweeping
     */
    public Optional<List<String>> removeOrphanFiles() {
        List<String> removed = new java.util.ArrayList<>();
        boolean ran = jobs.runAlone("export-orphan-sweep", () -> {
            try {
                List<String> keys = new java.util.ArrayList<>();
                for (FileStore.Entry e : files.list(FILES)) {
                    keys.add(e.key());
                }
                java.util.Set<String> inUse = jobs.filesInUse(keys);
                Instant cutoff = clock.instant().minus(ORPHAN_AGE);
                for (String key : keys) {
                    if (inUse.contains(key)) {
                        continue;
                    }
                    Optional<Instant> modified = files.modifiedAt(key);
                    if (modified.isPresent() && modified.get().isBefore(cutoff) && files.delete(key)) {
                        removed.add(key);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (!ran) {
            return Optional.empty();
        }
        if (!removed.isEmpty()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "removed {0} orphaned export files (named by no job, older than {1}): {2}",
                    removed.size(),
                    ORPHAN_AGE,
                    removed.size() <= 20 ? removed : removed.subList(0, 20) + "...");
        }
        return Optional.of(List.copyOf(removed));
    }

    private String newId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException(Message.MAILING_JOB_NOT_FOUND.with(Texts.quote(id)));
    }

    /**
     * The filters as the job stores them: {@code name=value} pairs joined by {@code &}, names and values
     * percent-encoded as UTF-8, in the filters' order with their canonical text ({@link
     * RegisterQuery#filterValues()}), then the page.
     */
    static String encode(RegisterQuery filters) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<RegisterQuery.Filter, List<String>> e :
                filters.filterValues().entrySet()) {
            for (String v : e.getValue()) {
                pair(sb, e.getKey().field(), v);
            }
        }
        if (filters.countOnly()) {
            pair(sb, COUNT_ONLY, "true");
        }
        pair(sb, RegisterQuery.LIMITE, Integer.toString(filters.limite()));
        pair(sb, RegisterQuery.PAGINA, Integer.toString(filters.pagina()));
        return sb.toString();
    }

    private static final String COUNT_ONLY = "apenas_total";
    private static final String CHANGES = "alteracoes";
    private static final String CHANGE_TYPES = "tipos";
    private static final String CHANGE_MONTH = "referencia";

    /** The count an export of this request would deliver from: the search's, or the changes'. */
    private CountResult count(MailingRequest request) {
        if (request.alteracoes().isEmpty()) {
            return register.count(request.filtros());
        }
        ChangeQuery q = request.alteracoes().get();
        ChangePage page = register.changes(new ChangeQuery(
                q.filtros().toBuilder().countOnly(true).buildWithoutFilterRule(), q.tipos(), q.referencia()));
        // An estimated change count states no interval here: the export's limit is then its quantidade.
        return page.aproximado()
                ? CountResult.estimate(page.total(), 0, Long.MAX_VALUE)
                : CountResult.exact(page.total());
    }

    /** The change selection as the job stores it, after the filters: {@code &alteracoes=true&tipos=...&referencia=...}. */
    static String encodeChanges(ChangeQuery q) {
        StringBuilder sb = new StringBuilder("x");
        pair(sb, CHANGES, "true");
        for (ChangeType t :
                java.util.EnumSet.copyOf(q.tipos().isEmpty() ? java.util.EnumSet.allOf(ChangeType.class) : q.tipos())) {
            pair(sb, CHANGE_TYPES, t.wire());
        }
        q.referencia().ifPresent(m -> pair(sb, CHANGE_MONTH, m.toString()));
        return sb.substring(1);
    }

    /** The change selection a job stored with its filters, or empty for an export of a search. */
    static Optional<ChangeQuery> decodeChanges(String filters) {
        if (!filters.contains(CHANGES + "=true")) {
            return Optional.empty();
        }
        java.util.Set<ChangeType> types = java.util.EnumSet.noneOf(ChangeType.class);
        Optional<java.time.YearMonth> month = Optional.empty();
        for (String pair : filters.split("&")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String name = pair.substring(0, eq);
            String value = java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
            if (name.equals(CHANGE_TYPES)) {
                types.add(ChangeType.ofWire(value)
                        .orElseThrow(
                                () -> new IllegalStateException("a stored job names the unknown change " + value)));
            } else if (name.equals(CHANGE_MONTH)) {
                month = Optional.of(java.time.YearMonth.parse(value));
            }
        }
        return Optional.of(new ChangeQuery(decode(filters), types, month));
    }

    private static void pair(StringBuilder sb, String name, String value) {
        if (!sb.isEmpty()) {
            sb.append('&');
        }
        sb.append(java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8))
                .append('=')
                .append(java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The filters {@link #encode} stored (by this release or an earlier one: the same text). */
    static RegisterQuery decode(String filters) {
        RegisterQuery.Builder b = RegisterQuery.builder();
        boolean changes = false;
        for (String pair : filters.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = java.net.URLDecoder.decode(pair.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8);
            String value = java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
            switch (name) {
                case CHANGES, CHANGE_TYPES, CHANGE_MONTH -> {
                    changes = true;
                }
                case COUNT_ONLY -> b.countOnly(Boolean.parseBoolean(value));
                case RegisterQuery.LIMITE -> b.limite(Long.parseLong(value));
                case RegisterQuery.PAGINA -> b.pagina(Long.parseLong(value));
                default -> {
                    RegisterQuery.Filter f = RegisterQuery.Filter.byField(name)
                            .orElseThrow(
                                    () -> new IllegalStateException("a stored job names the unknown filter " + name));
                    switch (f.kind()) {
                        case SET -> b.values(f, value);
                        case FLAG -> b.flag(f, Boolean.parseBoolean(value));
                        case DATE -> {
                            if (f == RegisterQuery.Filter.ABERTURA_DE) {
                                b.aberturaDe(java.time.LocalDate.parse(value));
                            } else {
                                b.aberturaAte(java.time.LocalDate.parse(value));
                            }
                        }
                        case CAPITAL -> {
                            if (f == RegisterQuery.Filter.CAPITAL_MIN) {
                                b.capitalMin(new java.math.BigDecimal(value));
                            } else {
                                b.capitalMax(new java.math.BigDecimal(value));
                            }
                        }
                        case TEXT -> b.buscaTextual(value);
                    }
                }
            }
        }
        // The changes are a job's filter of their own: the search's filters may then be none.
        return changes ? b.buildWithoutFilterRule() : b.build();
    }
}
