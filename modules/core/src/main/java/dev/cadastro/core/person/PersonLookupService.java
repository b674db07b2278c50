package dev.cadastro.core.person;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.InvalidDocumentException;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.provider.ProviderUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Use case: person lookup by CPF or phone.
 * Every lookup runs the checks in this order, each with its code, so a failing check hides the later
 * ones:
 *
 * <ol>
 *   <li>the {@code pessoas:read} scope ({@code SEM_ESCOPO}); the key's individual release ({@code
 *       PF_NAO_HABILITADA});
 *   <li>{@code finalidade} present and one of the four ({@code FINALIDADE_INVALIDA}); contracted for the
 *       account ({@code FINALIDADE_NAO_CONTRATADA});
 *   <li>exactly one of {@code cpf} and {@code telefone} ({@code PARAMETRO_INVALIDO}); the CPF's check
 *       digits ({@code CPF_INVALIDO}) or the phone's format ({@code PARAMETRO_INVALIDO});
 *   <li>a balance of 15 ({@code SEM_CREDITOS});
 *   <li>the bureau ({@code FORNECEDOR_INDISPONIVEL}, nothing charged); data under the purpose ({@code
 *       SEM_DADOS}, not charged);
 *   <li>in one transaction the charge and the audit row ({@code AUDITORIA_INDISPONIVEL} when the row
 *       cannot be written: nothing charged, nothing delivered).
 * </ol>
 *
 * The dossier is cut to the fields the account contracted for the purpose. The justification never
 * fails a call ({@link Justification}).
 */
public final class PersonLookupService {
    /** What a read of a job that another read is running is told to wait. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(2);

    /** How long a read holds its claim on a job before another read may take it over. */
    public static final Duration CLAIM_LEASE = Duration.ofSeconds(60);

    private static final String CPFS = "cpfs";

    private final PersonBureau bureau;
    private final AuditTrail audit;
    private final PersonJobs jobs;
    private final Ledger ledger;
    private final CostRules costs;
    private final SubjectDigests digests;
    private final Clock clock;
    private final RandomGenerator random;

    public PersonLookupService(
            PersonBureau bureau,
            AuditTrail audit,
            PersonJobs jobs,
            Ledger ledger,
            CostRules costs,
            SubjectDigests digests,
            Clock clock,
            RandomGenerator random) {
        this.bureau = Objects.requireNonNull(bureau, "bureau");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.digests = Objects.requireNonNull(digests, "digests");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * {@code POST /pessoas/consultar}: the checks, the lookup, then charge and audit in one transaction.
     *
     * @param reference unique to this call (the request id, or the client's idempotency key's row)
     * @param requestId the request id the audit row records
     */
    public PersonOutcome lookup(Principal principal, PersonRequest request, String reference, String requestId) {
        Checked checked = check(principal, request);
        ChargeRequest charge = costs.personLookup(principal.accountId(), reference);
        ledger.requireAffordable(charge);
        Dossier dossier = bureau.lookup(checked.subject(), checked.purpose())
                .orElseThrow(() -> noData(checked.subject(), checked.purpose()));
        return deliver(principal, checked, dossier, charge, requestId);
    }

    private PersonOutcome deliver(
            Principal principal, Checked checked, Dossier dossier, ChargeRequest charge, String requestId) {
        Map<String, Object> dados = PersonAnswers.release(dossier, checked.fields());
        List<String> fields = PersonAnswers.fieldsOf(dados);
        Instant now = clock.instant();
        AuditEntry entry = entry(principal, checked, fields, charge, requestId, now);
        ChargeResult paid = audit.chargeAndRecord(charge, entry);
        if (paid.replay()) {
            // An earlier run of this request charged, recorded and delivered it: not delivered twice.
            return new PersonOutcome(Map.of(), checked.justification(), fields, 0, paid.balanceAfter(), now, true);
        }
        return new PersonOutcome(
                dados, checked.justification(), fields, paid.charged(), paid.balanceAfter(), now, false);
    }

    /**
     * {@code POST /pessoas/consultar-async}: the same checks as {@link #lookup}, the balance included;
     * stores a pending job and charges nothing.
     */
    public PersonJob createJob(Principal principal, PersonRequest request) {
        Checked checked = check(principal, request);
        String id = newJobId();
        ledger.requireAffordable(costs.personJob(principal.accountId(), id));
        PersonJob job = PersonJob.create(
                id,
                principal.accountId(),
                checked.subject(),
                checked.purpose(),
                checked.justification(),
                clock.instant());
        jobs.create(job);
        return job;
    }

    /**
     * {@code GET /pessoas/jobs/{id}}: the first read that finds the job pending runs the lookup in this
     * call and receives the result; a read while it runs is told to wait; later reads learn when it was
     * delivered. An unknown, expired or other account's job is {@code NAO_ENCONTRADO}.
     *
     * @param requestId the request id the audit row records
     */
    public JobRead readJob(Principal principal, String jobId, String requestId) {
        principal.require(Scope.PESSOAS_READ);
        Instant now = clock.instant();
        PersonJob job = jobs.find(principal.accountId(), jobId)
                .filter(j -> !j.expired(now))
                .orElseThrow(() -> jobNotFound(jobId));
        switch (job.state()) {
            case PersonJob.State.Delivered d -> {
                return new JobRead.DeliveredBefore(jobId, d.at());
            }
            case PersonJob.State.NoData n -> throw noData(null, job.purpose());
            case PersonJob.State.Processing p
            when now.isBefore(p.leaseUntil()) -> {
                return new JobRead.Processing(jobId, RETRY_AFTER);
            }
            default -> {}
        }
        String claim = newJobId();
        Optional<PersonJob> claimed = jobs.claim(job, job.claim(claim, now, CLAIM_LEASE), now);
        if (claimed.isEmpty()) {
            // Another read claimed it first (or finished it): answer as of now.
            return readJob(principal, jobId, requestId);
        }
        return run(principal, claimed.get(), claim, requestId);
    }

    private JobRead run(Principal principal, PersonJob job, String claim, String requestId) {
        Subject subject = job.subject().orElseThrow();
        boolean released = false;
        try {
            Set<String> fields = principal.requirePersonLookup(job.purpose());
            Checked checked = new Checked(subject, job.purpose(), fields, job.justification());
            ChargeRequest charge = costs.personJob(principal.accountId(), job.id());
            ledger.requireAffordable(charge);
            Optional<Dossier> dossier = bureau.lookup(subject, job.purpose());
            if (dossier.isEmpty()) {
                jobs.finishWithoutData(job.noData(claim, clock.instant()), claim);
                released = true;
                throw noData(subject, job.purpose());
            }
            Map<String, Object> dados = PersonAnswers.release(dossier.get(), fields);
            List<String> released1 = PersonAnswers.fieldsOf(dados);
            Instant now = clock.instant();
            AuditEntry entry = entry(principal, checked, released1, charge, requestId, now);
            ChargeResult paid = jobs.deliver(job.deliver(claim, now), claim, charge, entry);
            released = true;
            return new JobRead.DeliveredNow(
                    job.id(),
                    new PersonOutcome(
                            dados, job.justification(), released1, paid.charged(), paid.balanceAfter(), now, false));
        } finally {
            if (!released) {
                jobs.release(job.release(claim), claim);
            }
        }
    }

    /**
     * {@code POST /pessoas/lote}: the batch-level checks of {@link #lookup} (scope, release, purpose) and
     * the contracted ceiling; then one item per position, never an error: invalid CPFs and data-less
     * persons are not charged, a duplicate is charged once under its first position, and once the balance
     * runs out nothing more is charged. Every charged item's audit row commits with its charge, all in one
     * transaction.
     *
     * @param cpfs the list as sent; an element that is not a string counts as an invalid CPF
     * @param reference unique to this batch (the request id, or the client's idempotency key's row)
     */
    public BatchOutcome batch(
            Principal principal,
            List<?> cpfs,
            Optional<String> finalidade,
            Optional<String> justificativa,
            String reference,
            String requestId) {
        Purpose purpose = checkPurpose(principal, finalidade);
        Set<String> fields = principal.requirePersonLookup(purpose);
        Account account = principal.account();
        if (cpfs == null || cpfs.isEmpty()) {
            throw InvalidParameterException.of(
                    CPFS, "required", Message.PERSON_CPFS_REQUIRED.with(account.personBatchLimit()));
        }
        if (cpfs.size() > account.personBatchLimit()) {
            throw InvalidParameterException.of(
                    CPFS,
                    "ceiling",
                    Message.PERSON_CPFS_CEILING.with(cpfs.size(), account.id(), account.personBatchLimit()));
        }
        Justification justification = Justification.choose(justificativa, account.defaultJustification(), purpose);
        List<String> texts = new ArrayList<>(cpfs.size());
        for (Object o : cpfs) {
            texts.add(o instanceof String s ? s : "");
        }
        Map<Cpf, ChargeRequest> charges = costs.personBatch(principal.accountId(), reference, texts);
        long budget = ledger.balance(principal.accountId(), CreditKind.CREDITS).available() / CostRules.PERSON_LOOKUP;

        BatchOutcome.Item[] items = new BatchOutcome.Item[texts.size()];
        Map<Cpf, Integer> first = new HashMap<>();
        List<Integer> toCharge = new ArrayList<>();
        List<AuditTrail.Paid> paid = new ArrayList<>();
        boolean outOfCredits = false;
        Instant now = clock.instant();
        for (int i = 0; i < texts.size(); i++) {
            if (!(cpfs.get(i) instanceof String)) {
                // A number (or null, a list...) is the wrong type, not a missing CPF.
                items[i] = new BatchOutcome.Item.CpfInvalido(BatchOutcome.Item.CpfInvalido.TYPE);
                continue;
            }
            Cpf cpf;
            switch (Cpf.parse(texts.get(i))) {
                case Parsed.Valid<Cpf> v -> cpf = v.value();
                case Parsed.Invalid<Cpf> inv -> {
                    items[i] = new BatchOutcome.Item.CpfInvalido(inv.violation().rule());
                    continue;
                }
            }
            Integer earlier = first.putIfAbsent(cpf, i);
            if (earlier != null) {
                items[i] = new BatchOutcome.Item.Duplicado(earlier);
                continue;
            }
            if (outOfCredits || budget < 1) {
                outOfCredits = true;
                items[i] = new BatchOutcome.Item.SemCreditos();
                continue;
            }
            Subject subject = new Subject.ByCpf(cpf);
            Optional<Dossier> dossier;
            try {
                dossier = bureau.lookup(subject, purpose);
            } catch (ProviderUnavailableException e) {
                items[i] = new BatchOutcome.Item.FornecedorIndisponivel();
                continue;
            }
            if (dossier.isEmpty()) {
                items[i] = new BatchOutcome.Item.SemDados();
                continue;
            }
            budget--;
            Map<String, Object> dados = PersonAnswers.release(dossier.get(), fields);
            ChargeRequest charge = charges.get(cpf);
            Checked checked = new Checked(subject, purpose, fields, justification);
            paid.add(new AuditTrail.Paid(
                    charge, entry(principal, checked, PersonAnswers.fieldsOf(dados), charge, requestId, now)));
            items[i] = new BatchOutcome.Item.Concluido(dados, 0, false);
            toCharge.add(i);
        }
        List<ChargeResult> results = paid.isEmpty() ? List.of() : audit.chargeAndRecordAll(paid);
        long total = 0;
        for (int k = 0; k < toCharge.size(); k++) {
            int position = toCharge.get(k);
            if (k < results.size()) {
                BatchOutcome.Item.Concluido done = (BatchOutcome.Item.Concluido) items[position];
                ChargeResult result = results.get(k);
                total += result.charged();
                items[position] = result.replay()
                        // An earlier run of this batch charged, recorded and delivered it: not again.
                        ? new BatchOutcome.Item.Concluido(Map.of(), 0, true)
                        : new BatchOutcome.Item.Concluido(done.dados(), result.charged(), false);
            } else {
                // The balance changed under the batch: this item and the later ones are not charged.
                items[position] = new BatchOutcome.Item.SemCreditos();
                outOfCredits = true;
            }
        }
        if (outOfCredits && results.size() < toCharge.size()) {
            int cut = toCharge.get(results.size());
            for (int i = cut + 1; i < items.length; i++) {
                if (items[i] instanceof BatchOutcome.Item.Concluido) {
                    items[i] = new BatchOutcome.Item.SemCreditos();
                }
            }
        }
        long balance = ledger.balance(principal.accountId(), CreditKind.CREDITS).posted();
        return new BatchOutcome(List.of(items), justification, total, balance);
    }

    /**
     * The batch-level checks of {@link #batch} without running it: scope, release, purpose, contracted.
     * The HTTP adapter runs them before it reports a malformed body, so they answer first.
     */
    public void checkBatchAccess(Principal principal, Optional<String> finalidade) {
        principal.requirePersonLookup(checkPurpose(principal, finalidade));
    }

    private record Checked(Subject subject, Purpose purpose, Set<String> fields, Justification justification) {}

    /** The checks before the balance, in the contract's order. */
    private Checked check(Principal principal, PersonRequest request) {
        Purpose purpose = checkPurpose(principal, request.finalidade());
        Set<String> fields = principal.requirePersonLookup(purpose);
        Subject subject = subject(request);
        Justification justification = Justification.choose(
                request.justificativa(), principal.account().defaultJustification(), purpose);
        return new Checked(subject, purpose, fields, justification);
    }

    /** Scope, release, then the purpose's presence and value. */
    private static Purpose checkPurpose(Principal principal, Optional<String> finalidade) {
        principal.require(Scope.PESSOAS_READ);
        if (!principal.key().personLookupReleased()) {
            // requirePersonLookup says it again with its own message; the order needs it before the purpose.
            principal.requirePersonLookup(Purpose.ANALISE_CREDITO);
        }
        String text = finalidade.orElse(null);
        if (text == null || text.isBlank()) {
            throw new CadastroException(
                    ErrorCode.FINALIDADE_INVALIDA,
                    Message.PURPOSE_REQUIRED.with(List.of(Purpose.values())),
                    Message.PURPOSE_WHAT.with());
        }
        return Purpose.fromWire(text)
                .orElseThrow(() -> new CadastroException(
                        ErrorCode.FINALIDADE_INVALIDA,
                        Message.PURPOSE_UNKNOWN.with(quote(text), List.of(Purpose.values()))));
    }

    private static Subject subject(PersonRequest request) {
        if (request.malformed().isPresent()) {
            throw InvalidParameterException.of(
                    "body", "shape", request.malformed().get());
        }
        boolean cpf = request.cpf().isPresent();
        boolean phone = request.telefone().isPresent();
        if (cpf == phone) {
            throw InvalidParameterException.of(
                    cpf ? "cpf" : "cpf|telefone",
                    "exactly-one",
                    cpf ? Message.PERSON_NOT_BOTH.with() : Message.PERSON_ONE_REQUIRED.with());
        }
        if (cpf) {
            return switch (Cpf.parse(request.cpf().get())) {
                case Parsed.Valid<Cpf> v -> new Subject.ByCpf(v.value());
                case Parsed.Invalid<Cpf> i -> throw new InvalidDocumentException(i.violation());
            };
        }
        return switch (Phone.parse(request.telefone().get())) {
            case Parsed.Valid<Phone> v -> new Subject.ByPhone(v.value());
            case Parsed.Invalid<Phone> i -> throw new InvalidDocumentException(i.violation());
        };
    }

    private AuditEntry entry(
            Principal principal,
            Checked checked,
            List<String> fields,
            ChargeRequest charge,
            String requestId,
            Instant now) {
        return new AuditEntry(
                principal.accountId(),
                principal.key().prefix(),
                checked.purpose(),
                checked.justification(),
                checked.subject().kind(),
                digests.of(checked.subject()),
                fields,
                requestId,
                charge.key().value(),
                now);
    }

    private String newJobId() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return "pj_" + HexFormat.of().formatHex(b);
    }

    private static CadastroException noData(Subject subject, Purpose purpose) {
        LocalizedText who = subject == null
                ? Message.PERSON_THIS_PERSON.with()
                : (subject.kind().equals("CPF") ? Message.PERSON_CPF : Message.PERSON_PHONE).with(subject.masked());
        return new CadastroException(ErrorCode.SEM_DADOS, Message.PERSON_NO_DATA.with(who, purpose));
    }

    private static NotFoundException jobNotFound(String jobId) {
        return new NotFoundException(Message.PERSON_JOB_NOT_FOUND.with(quote(jobId)));
    }

    private static String quote(String s) {
        return dev.cadastro.core.internal.Texts.quote(s);
    }
}
