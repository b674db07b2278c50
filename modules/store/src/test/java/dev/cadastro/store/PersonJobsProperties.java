package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.person.Dossier;
import dev.cadastro.core.person.JobRead;
import dev.cadastro.core.person.PersonBureau;
import dev.cadastro.core.person.PersonJob;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.person.PersonRequest;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.core.provider.ProviderUnavailableException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Async person jobs on PostgreSQL against a model of the contract's state table: creation checks the
 * balance and charges nothing; the first read that finds a job pending runs the lookup and is charged
 * 15 once with one audit row; a bureau failure or a short balance leaves it pending; no data finishes
 * it uncharged; an unread job expires after 24 hours; later reads never charge. After every step the
 * ledger, the audit trail and the model agree.
 */
class PersonJobsProperties {
    private static final Cpf CPF = Cpf.withCheckDigits("529982247");
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    enum Bureau {
        ANSWERS,
        DOWN,
        NO_DATA
    }

    enum State {
        PENDING,
        DELIVERED,
        NO_DATA
    }

    static final class ModelJob {
        final String id;
        final Instant created;
        State state = State.PENDING;

        ModelJob(String id, Instant created) {
            this.id = id;
            this.created = created;
        }
    }

    static final class World {
        final Store store = TestDatabase.store();
        final ManualClock clock = new ManualClock(Instant.parse("2026-11-23T15:00:00Z"));
        final Account account;
        final Principal principal;
        final PersonLookupService service;
        final List<ModelJob> jobs = new ArrayList<>();
        Bureau bureau = Bureau.ANSWERS;
        long balance = 30;
        long delivered;

        World() {
            account = TestDatabase.fundedAccount(30, 0);
            store.accounts().contractPurpose(account.id(), Purpose.KYC_CADASTRO, Set.of("cpf", "nome"));
            var issued = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                    .issue(account.id(), "jobs", EnumSet.of(Scope.PESSOAS_READ));
            store.apiKeys().setPersonLookupReleased(issued.key().prefix(), true);
            principal = new Principal(
                    store.apiKeys().find(issued.key().prefix()).orElseThrow(),
                    store.accounts().find(account.id()).orElseThrow());
            PersonBureau port = (subject, purpose) -> switch (bureau) {
                case ANSWERS ->
                    Optional.of(new Dossier(
                            CPF.digits(),
                            "ANA",
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            List.of(),
                            List.of(),
                            List.of(),
                            null,
                            null,
                            null,
                            null,
                            null));
                case DOWN ->
                    throw new ProviderUnavailableException(
                            "person-bureau", ProviderUnavailableException.Failure.ERROR, null, null);
                case NO_DATA -> Optional.empty();
            };
            service = new PersonLookupService(
                    port,
                    store.personAudit(),
                    store.personJobs(),
                    store.ledger(),
                    new CostRules(clock),
                    new SubjectDigests("t", new byte[32]),
                    clock,
                    new SecureRandom());
        }

        World create() {
            PersonRequest request = new PersonRequest(
                    Optional.of(CPF.formatted()), Optional.empty(), Optional.of("KYC_CADASTRO"), Optional.empty());
            if (balance < CostRules.PERSON_LOOKUP) {
                assertCode(ErrorCode.SEM_CREDITOS, () -> service.createJob(principal, request));
            } else {
                PersonJob job = service.createJob(principal, request);
                assertEquals("pendente", job.state().wire());
                jobs.add(new ModelJob(job.id(), clock.instant()));
            }
            return this;
        }

        World read(int pick, Bureau mode) {
            ModelJob job = jobs.get(pick % jobs.size());
            bureau = mode;
            boolean expired = job.state == State.PENDING && !clock.instant().isBefore(job.created.plus(PersonJob.TERM));
            if (expired) {
                assertCode(ErrorCode.NAO_ENCONTRADO, () -> service.readJob(principal, job.id, "r"));
            } else if (job.state == State.DELIVERED) {
                assertInstanceOf(JobRead.DeliveredBefore.class, service.readJob(principal, job.id, "r"));
            } else if (job.state == State.NO_DATA) {
                assertCode(ErrorCode.SEM_DADOS, () -> service.readJob(principal, job.id, "r"));
            } else if (balance < CostRules.PERSON_LOOKUP) {
                assertCode(ErrorCode.SEM_CREDITOS, () -> service.readJob(principal, job.id, "r"));
            } else if (mode == Bureau.DOWN) {
                assertCode(ErrorCode.FORNECEDOR_INDISPONIVEL, () -> service.readJob(principal, job.id, "r"));
            } else if (mode == Bureau.NO_DATA) {
                assertCode(ErrorCode.SEM_DADOS, () -> service.readJob(principal, job.id, "r"));
                job.state = State.NO_DATA;
            } else {
                JobRead read = service.readJob(principal, job.id, "r-" + job.id);
                JobRead.DeliveredNow now = assertInstanceOf(JobRead.DeliveredNow.class, read);
                assertEquals(15, now.outcome().creditsCharged());
                assertEquals(CPF.digits(), now.outcome().dados().get("cpf"));
                job.state = State.DELIVERED;
                balance -= 15;
                delivered++;
            }
            return this;
        }

        World advance(Duration d) {
            clock.advance(d);
            return this;
        }

        World topUp() {
            store.ledger()
                    .topUp(account.id(), CreditKind.CREDITS, 15, IdempotencyKey.of("t:" + UUID.randomUUID()), "t");
            balance += 15;
            return this;
        }

        void compare() {
            assertEquals(
                    balance,
                    store.ledger().balance(account.id(), CreditKind.CREDITS).posted(),
                    "balance");
            assertEquals(
                    delivered,
                    store.personAudit()
                            .list(account.id(), Instant.EPOCH, FAR, 1000)
                            .size(),
                    "one audit row per delivery");
        }

        private static void assertCode(ErrorCode code, org.junit.jupiter.api.function.Executable call) {
            assertEquals(code, assertThrows(CadastroException.class, call).code());
        }

        @Override
        public String toString() {
            return "World[jobs=" + jobs.size() + ", balance=" + balance + "]";
        }
    }

    @Property(tries = 25)
    void jobsOnPostgreSqlFollowTheModel(@ForAll("chains") ActionChain<World> chain) {
        chain.withInvariant("ledger and audit trail match the model", World::compare)
                .run();
    }

    @Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(World::new)
                .withAction(3, independent(Arbitraries.just(Transformer.<World>mutate("create", World::create))))
                .withAction(6, new Action.Independent<World>() {
                    @Override
                    public boolean precondition(World w) {
                        return !w.jobs.isEmpty();
                    }

                    @Override
                    public Arbitrary<Transformer<World>> transformer() {
                        return Arbitraries.integers()
                                .between(0, 100)
                                .flatMap(i -> Arbitraries.of(Bureau.values())
                                        .map(m ->
                                                Transformer.mutate("read #" + i + " bureau " + m, w -> w.read(i, m))));
                    }
                })
                .withAction(
                        2,
                        independent(Arbitraries.of(Duration.ofHours(1), Duration.ofHours(12), Duration.ofHours(25))
                                .map(d -> Transformer.<World>mutate("advance " + d, w -> w.advance(d)))))
                .withAction(1, independent(Arbitraries.just(Transformer.<World>mutate("top up 15", World::topUp))))
                .withMaxTransformations(25);
    }

    private static Action.Independent<World> independent(Arbitrary<Transformer<World>> transformers) {
        return new Action.Independent<>() {
            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return transformers;
            }
        };
    }
}
