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
import dev.cadastro.store.internal.DatabaseWatch;
import dev.cadastro.store.internal.EvictOnReadOnly;
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
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
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
    private final HikariDataSource pool;
    /** Idempotency lease renewals only ({@link #LEASE_CONNECTIONS}): never starved by a saturated {@link #pool}. */
    private final HikariDataSource leasePool;

    private final DatabaseWatch watch;
    private final DataSource dataSource;
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
            HikariDataSource pool,
            HikariDataSource leasePool,
            DatabaseWatch watch,
            Clock clock,
            int batchWorkers,
            Telemetry telemetry,
            int admissionWorkers) {
        this.embedded = embedded;
        this.pool = pool;
        this.leasePool = leasePool;
        this.watch = watch;
        this.dataSource = watch.gated(pool);
        this.migrated = Migrations.apply(dataSource, clock);
        this.accounts = new PgAccounts(dataSource, clock);
        this.apiKeys = new PgApiKeys(dataSource);
        this.ledger = new PgLedger(dataSource, clock, batchWorkers, telemetry);
        this.admissionStore = new PgAdmissionStore(dataSource, admissionWorkers);
        this.idempotency = new PgIdempotencyStore(dataSource, watch.gated(leasePool));
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
        HikariDataSource leasePool = null;
        DatabaseWatch watch = null;
        try {
            String url = embedded.map(EmbeddedDatabase::jdbcUrl)
                    .orElseGet(() -> database.url().orElseThrow());
            HikariConfig config = new HikariConfig();
            config.setPoolName("cadastro-store");
            config.setJdbcUrl(url);
            database.user().ifPresent(config::setUsername);
            database.password().ifPresent(config::setPassword);
            config.setMaximumPoolSize(database.poolSize());
            config.setConnectionTimeout(database.connectionTimeout().toMillis());
            // A connection idle for a while is checked before it is handed out; against a frozen server the
            // check must give up well within the connection timeout.
            // HikariCP's floor is 250 ms.
            config.setValidationTimeout(
                    Math.max(250, Math.min(1_000, database.connectionTimeout().toMillis() / 2)));
            config.setAutoCommit(true);
            config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
            config.addDataSourceProperty("ApplicationName", "cadastro");
            config.addDataSourceProperty("reWriteBatchedInserts", "true");
            config.addDataSourceProperty("connectTimeout", Long.toString(CONNECT_TIMEOUT_SECONDS));
            config.addDataSourceProperty("loginTimeout", Long.toString(CONNECT_TIMEOUT_SECONDS));
            config.addDataSourceProperty(
                    "socketTimeout", Long.toString(database.networkTimeout().toSeconds()));
            config.addDataSourceProperty("tcpKeepAlive", "true");
            config.addDataSourceProperty("hostRecheckSeconds", Long.toString(HOST_RECHECK_SECONDS));
            // After a failover, a connection to the demoted primary refuses writes with 25006: drop it, so
            // the next one is opened through the URL (targetServerType=primary finds the new primary).
            config.setExceptionOverride(new EvictOnReadOnly());
            watch = DatabaseWatch.start(probe(url, database), Clock.systemUTC());
            HikariConfig leaseConfig = new HikariConfig();
            config.copyStateTo(leaseConfig); // before the main pool seals it
            leaseConfig.setPoolName("cadastro-leases");
            leaseConfig.setMaximumPoolSize(LEASE_CONNECTIONS);
            leaseConfig.setMinimumIdle(0);
            pool = new HikariDataSource(config);
            leasePool = new HikariDataSource(leaseConfig);
            int batchWorkers = database.groupCommitWorkers();
            int admissionWorkers = database.admissionGroupCommit() ? database.admissionQueues() : 0;
            Store store = new Store(embedded, pool, leasePool, watch, clock, batchWorkers, telemetry, admissionWorkers);
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
            if (leasePool != null) {
                leasePool.close();
            }
            if (watch != null) {
                watch.close();
            }
            embedded.ifPresent(EmbeddedDatabase::close);
            throw e;
        }
    }

    /**
     * The connections of idempotency lease renewals, beside the main pool: a renewal is one short UPDATE
     * every two seconds per running request, so two serve hundreds of requests, and a pool saturated by
     * requests can no longer hold a renewal back until its lease runs out and a retry takes over.
     */
    public static final int LEASE_CONNECTIONS = 2;

    /** How long opening a connection may take, the pool's and the probe's (pgjdbc takes whole seconds). */
    private static final long CONNECT_TIMEOUT_SECONDS = 2;

    /**
     * How long pgjdbc trusts what it learnt of a host of a multi-host URL (primary, standby, down) before it
     * asks again; its default, 10 s, would keep a standby promoted by a failover out of reach that long
     * after it learnt it was a standby. A URL's own {@code hostRecheckSeconds} wins.
     */
    private static final long HOST_RECHECK_SECONDS = 2;

    /** The watch's own connection: outside the pool, every wait bounded to two seconds. */
    private static DatabaseWatch.Probe probe(String url, Database database) {
        Properties props = new Properties();
        database.user().ifPresent(u -> props.setProperty("user", u));
        database.password().ifPresent(p -> props.setProperty("password", p));
        props.setProperty("ApplicationName", "cadastro-watch");
        // Two seconds, not one: a loaded machine can stall a loopback SELECT 1 for most of a second, and a
        // false alarm would refuse requests that the database could serve.
        props.setProperty("connectTimeout", "2");
        props.setProperty("loginTimeout", "2");
        props.setProperty("socketTimeout", "2");
        props.setProperty("tcpKeepAlive", "true");
        props.setProperty("hostRecheckSeconds", Long.toString(HOST_RECHECK_SECONDS));
        org.postgresql.Driver driver = new org.postgresql.Driver();
        return () -> {
            Connection c = driver.connect(url, props);
            if (c == null) {
                throw new SQLException("the PostgreSQL driver does not take the URL " + url, "08001");
            }
            // A socketTimeout in the URL wins over the properties: the probe keeps its own bound.
            c.setNetworkTimeout(Runnable::run, 2_000);
            return c;
        };
    }

    /**
     * Whether the database answered the store's last probe (every half second); while it does not, every
     * operation that needs it fails at once with {@link StoreUnavailableException}.
     */
    public boolean databaseAnswering() {
        return watch.answering();
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
            pool.close();
            leasePool.close();
            watch.close();
        } finally {
            embedded.ifPresent(EmbeddedDatabase::close);
        }
    }
}
