package dev.cadastro.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.cadastro.core.account.Accounts;
import dev.cadastro.core.account.ApiKeys;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.IngestCheckpoints;
import dev.cadastro.core.calls.push.DeliveryQueue;
import dev.cadastro.core.calls.push.PushDestinations;
import dev.cadastro.core.credit.CreditReportCache;
import dev.cadastro.core.idempotency.IdempotencyStore;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.mailing.MailingJobs;
import dev.cadastro.core.overview.AccountFunds;
import dev.cadastro.core.person.AuditTrail;
import dev.cadastro.core.person.PersonJobs;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.sms.OtpStore;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.store.internal.Migrations;
import dev.cadastro.store.internal.PgAccountFunds;
import dev.cadastro.store.internal.PgAccounts;
import dev.cadastro.store.internal.PgAdmissionStore;
import dev.cadastro.store.internal.PgApiKeys;
import dev.cadastro.store.internal.PgAuditTrail;
import dev.cadastro.store.internal.PgCallStore;
import dev.cadastro.store.internal.PgCallTokens;
import dev.cadastro.store.internal.PgCreditReportCache;
import dev.cadastro.store.internal.PgDeliveryQueue;
import dev.cadastro.store.internal.PgIdempotencyStore;
import dev.cadastro.store.internal.PgIngestCheckpoints;
import dev.cadastro.store.internal.PgLedger;
import dev.cadastro.store.internal.PgMailingJobs;
import dev.cadastro.store.internal.PgOtpStore;
import dev.cadastro.store.internal.PgPersonJobs;
import dev.cadastro.store.internal.PgPushDestinations;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The opened store: a connection pool on the configured PostgreSQL (started first when embedded),
 * the schema migrated to this build's version, and the adapters of the core's ports. Thread-safe;
 * open one per process and close it at shutdown. Several processes may share one database: every
 * count and balance lives in it, none in memory.
 */
public final class Store implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Store.class.getName());

    private final Optional<EmbeddedDatabase> embedded;
    private final HikariDataSource dataSource;
    private final List<Integer> migrated;
    private final Accounts accounts;
    private final ApiKeys apiKeys;
    private final PgLedger ledger;
    private final PgAdmissionStore admissionStore;
    private final IdempotencyStore idempotency;
    private final MailingJobs mailingJobs;
    private final AccountFunds accountFunds;
    private final OtpStore otpStore;
    private final CreditReportCache creditReports;
    private final PgAuditTrail personAudit;
    private final PersonJobs personJobs;
    private final PushDestinations pushDestinations;
    private final PgDeliveryQueue deliveryQueue;
    private final Clock clock;
    // The call-records service.
    private final CallStore calls;
    private final CallTokens callTokens;
    private final IngestCheckpoints ingestCheckpoints;

    private Store(
            Optional<EmbeddedDatabase> embedded,
            HikariDataSource dataSource,
            Clock clock,
            int batchWorkers,
            Telemetry telemetry,
            int admissionWorkers) {
        this.embedded = embedded;
        this.dataSource = dataSource;
        this.migrated = Migrations.apply(dataSource, clock);
        this.accounts = new PgAccounts(dataSource, clock);
        this.apiKeys = new PgApiKeys(dataSource);
        this.ledger = new PgLedger(dataSource, clock, batchWorkers, telemetry);
        this.admissionStore = new PgAdmissionStore(dataSource, admissionWorkers);
        this.idempotency = new PgIdempotencyStore(dataSource);
        this.mailingJobs = new PgMailingJobs(dataSource, ledger);
        this.accountFunds = new PgAccountFunds(dataSource);
        this.otpStore = new PgOtpStore(dataSource, ledger);
        this.creditReports = new PgCreditReportCache(dataSource, ledger);
        this.personAudit = new PgAuditTrail(dataSource, ledger, batchWorkers);
        this.personJobs = new PgPersonJobs(dataSource, ledger);
        this.pushDestinations = new PgPushDestinations(dataSource);
        this.deliveryQueue = new PgDeliveryQueue(dataSource);
        this.clock = clock;
        SecureRandom secure = new SecureRandom();
        this.calls = new PgCallStore(dataSource, clock, secure);
        this.callTokens = new PgCallTokens(dataSource, clock, secure);
        this.ingestCheckpoints = new PgIngestCheckpoints(dataSource);
    }

    /**
     * Opens the store: starts the embedded server when configured, connects, and applies missing
     * migrations (safe when several servers start at once).
     *
     * @param clock the time of entries, keys and rate-limit windows
     */
    public static Store open(Database database, Clock clock) {
        return open(database, clock, Telemetry.NONE);
    }

    /**
     * {@link #open(Database, Clock)}, reporting every ledger entry written and the credits each debit
     * took to {@code telemetry}.
     */
    public static Store open(Database database, Clock clock, Telemetry telemetry) {
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
        Optional<EmbeddedDatabase> embedded =
                database.embeddedDir().map(dir -> EmbeddedDatabase.start(dir, database.durableCommits()));
        HikariDataSource pool = null;
        try {
            HikariConfig config = new HikariConfig();
            config.setPoolName("cadastro-store");
            config.setJdbcUrl(embedded.map(EmbeddedDatabase::jdbcUrl)
                    .orElseGet(() -> database.url().orElseThrow()));
            database.user().ifPresent(config::setUsername);
            database.password().ifPresent(config::setPassword);
            config.setMaximumPoolSize(database.poolSize());
            config.setConnectionTimeout(database.connectionTimeout().toMillis());
            config.setAutoCommit(true);
            config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
            config.addDataSourceProperty("ApplicationName", "cadastro");
            config.addDataSourceProperty("reWriteBatchedInserts", "true");
            pool = new HikariDataSource(config);
            int batchWorkers = database.groupCommitWorkers();
            int admissionWorkers = database.admissionGroupCommit() ? database.admissionQueues() : 0;
            Store store = new Store(embedded, pool, clock, batchWorkers, telemetry, admissionWorkers);
            LOG.log(
                    store.migrated.isEmpty() ? System.Logger.Level.DEBUG : System.Logger.Level.INFO,
                    "store open on {0}; migrations applied now: {1}",
                    database,
                    store.migrated);
            return store;
        } catch (RuntimeException e) {
            if (pool != null) {
                pool.close();
            }
            embedded.ifPresent(EmbeddedDatabase::close);
            throw e;
        }
    }

    public Accounts accounts() {
        return accounts;
    }

    public ApiKeys apiKeys() {
        return apiKeys;
    }

    public Ledger ledger() {
        return ledger;
    }

    /** Mailing export jobs and their queue; each state change commits with its ledger hold. */
    public MailingJobs mailingJobs() {
        return mailingJobs;
    }

    /** Each account's balances and what its running exports hold, read together. */
    public AccountFunds accountFunds() {
        return accountFunds;
    }

    /** Each account's cache of the credit reports it fetched; a fetch's charge commits with its row. */
    public CreditReportCache creditReports() {
        return creditReports;
    }

    /** SMS one-time code dispatches; each move commits with its SMS credit's hold, post, release or refund. */
    public OtpStore otpStore() {
        return otpStore;
    }

    /** The append-only audit trail of person lookups; each row commits with its charge. */
    public AuditTrail personAudit() {
        return personAudit;
    }

    /** The async person jobs; a delivery commits its charge, its audit row and its new state together. */
    public PersonJobs personJobs() {
        return personJobs;
    }

    /** The calls of the call-records service; an ingest commits each call's change with its push delivery. */
    public CallStore calls() {
        return calls;
    }

    /** The call-records service's integrations and their bearer tokens. */
    public CallTokens callTokens() {
        return callTokens;
    }

    /** How far each call source was ingested, and which server ingests it now. */
    public IngestCheckpoints ingestCheckpoints() {
        return ingestCheckpoints;
    }

    /** The remembered requests of client idempotency keys. */
    /** The push destination of each integration. */
    public PushDestinations pushDestinations() {
        return pushDestinations;
    }

    /** The push outbox: deliveries claimed by the push workers. */
    public DeliveryQueue deliveryQueue() {
        return deliveryQueue;
    }

    public IdempotencyStore idempotency() {
        return idempotency;
    }

    /**
     * Request admission (authentication and rate limits in one statement) with the contract's
     * 120 requests per minute per key, on the store's clock.
     */
    public Admission admission() {
        return admission(Admission.REQUESTS_PER_MINUTE, clock);
    }

    /** Admission with another per-minute limit (tests, private deployments), sharing this store's counters. */
    public Admission admission(long requestsPerMinute, Clock clock) {
        return new Admission(admissionStore, clock, requestsPerMinute);
    }

    /** The versions {@link #open} applied (empty when the schema was current). */
    public List<Integer> migrationsApplied() {
        return migrated;
    }

    /** The pool, for adapters of other ports that live in the same database. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** The embedded server, when this store started one. */
    public Optional<EmbeddedDatabase> embedded() {
        return embedded;
    }

    /** Closes the pool, then stops the embedded server if any; its data stays in its folder. */
    @Override
    public void close() {
        try {
            personAudit.close();
            admissionStore.close();
            ledger.close();
            deliveryQueue.close();
            dataSource.close();
        } finally {
            embedded.ifPresent(EmbeddedDatabase::close);
        }
    }
}
