package dev.cadastro.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the store lives: a PostgreSQL JDBC URL (production), or a folder for an embedded PostgreSQL
 * that keeps its data there across restarts (the default, and tests). Immutable; built and validated
 * by {@link #builder()}.
 */
public final class Database {
    /** The folder {@code ./cadastro} uses when neither {@code --database} nor {@code --embedded-db} is given. */
    public static final Path DEFAULT_EMBEDDED_DIR = Path.of(".cadastro", "db");

    private final Optional<String> url;
    private final Optional<String> user;
    private final Optional<String> password;
    private final Optional<Path> embeddedDir;
    private final int poolSize;
    private final Duration connectionTimeout;
    private final Duration networkTimeout;
    private final boolean durableCommits;
    private final int groupCommitWorkers;
    private final boolean admissionGroupCommit;
    private final int admissionQueues;

    private Database(Builder b) {
        this.url = Optional.ofNullable(b.url);
        this.user = Optional.ofNullable(b.user);
        this.password = Optional.ofNullable(b.password);
        this.embeddedDir = Optional.ofNullable(b.embeddedDir);
        this.poolSize = b.poolSize;
        this.connectionTimeout = b.connectionTimeout;
        this.networkTimeout = b.networkTimeout;
        this.durableCommits = b.durableCommits;
        this.groupCommitWorkers = b.groupCommitWorkers;
        this.admissionGroupCommit = b.admissionGroupCommit;
        this.admissionQueues = b.admissionQueues > 0 ? b.admissionQueues : defaultAdmissionQueues(b);
    }

    /** Half of the pool the charge workers leave, at least one: the other half serves everything else. */
    private static int defaultAdmissionQueues(Builder b) {
        return Math.max(1, (b.poolSize - b.groupCommitWorkers) / 2);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** An embedded PostgreSQL keeping its data in {@code dir}. */
    public static Database embedded(Path dir) {
        return builder().embedded(dir).build();
    }

    /** An external PostgreSQL at a {@code jdbc:postgresql://...} URL (credentials may be in the URL). */
    public static Database url(String jdbcUrl) {
        return builder().url(jdbcUrl).build();
    }

    public Optional<String> url() {
        return url;
    }

    public Optional<String> user() {
        return user;
    }

    public Optional<String> password() {
        return password;
    }

    public Optional<Path> embeddedDir() {
        return embeddedDir;
    }

    /** Maximum connections in the pool. */
    public int poolSize() {
        return poolSize;
    }

    /**
     * How long a request waits for a pooled connection (HikariCP's {@code connectionTimeout}); default 2 s,
     * so that a request needing a database that is gone is answered 503 within 3 s.
     */
    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /**
     * How long a statement on a pooled connection waits for the server's next packet before the
     * connection is given up as broken (pgjdbc's {@code socketTimeout}, whole seconds); default 2 s.
     * It bounds a request caught in a statement when the server freezes or its network goes; a server
     * that is merely slow to answer hits it too, so keep it above the slowest statement a request runs.
     * Migrations and housekeeping lift it for their own statements. {@link Duration#ZERO} turns it off.
     */
    public Duration networkTimeout() {
        return networkTimeout;
    }

    /**
     * Embedded only: whether a commit waits for its WAL to reach the disk ({@code synchronous_commit=on},
     * the default). Off trades the last fraction of a second of commits after an OS crash for speed; it
     * never corrupts data. Tests turn it off; an external server keeps its own setting.
     */
    public boolean durableCommits() {
        return durableCommits;
    }

    /**
     * Whether concurrent charges are grouped into one transaction each (one WAL flush for many; the
     * default). Off, every charge commits alone. Either way each charge keeps its own outcome.
     */
    public boolean groupCommit() {
        return groupCommitWorkers > 0;
    }

    /**
     * How many threads apply grouped charges, each batch on one pooled connection; 0 when group commit
     * is off. Default 1: one batch in flight takes everything queued meanwhile, leaves the other
     * connections to the rest of the requests, and never waits for the row locks of another batch of
     * this process ({@code benchmarks/history/2026-11-21-http.md}, "HTTP: one charge-batch worker instead of five").
     */
    public int groupCommitWorkers() {
        return groupCommitWorkers;
    }

    /**
     * Whether requests' admissions (key read and rate-limit count) are grouped into shared commits too,
     * on {@link #admissionQueues()} queues (ADR 0031). On by default: on several queues it lifted SMS pairs,
     * count-only searches and lookups alike in alternating runs ({@code benchmarks/history/2026-11-24-sms.md}, "sms:
     * admissions on several queues"); on one queue it had slowed counts and lookups.
     */
    public boolean admissionGroupCommit() {
        return admissionGroupCommit;
    }

    /**
     * How many admission queues the group commit runs, each with its own worker and at most one batch (one
     * pooled connection) in flight; a key's requests always go to the same queue. Default: half of the
     * pool the charge workers leave, at least one (4 with the default pool of 10).
     */
    public int admissionQueues() {
        return admissionQueues;
    }

    @Override
    public String toString() {
        return url.map(u -> "Database[url=" + u.replaceAll("password=[^&]*", "password=***") + "]")
                .orElseGet(() -> "Database[embedded=" + embeddedDir.orElseThrow() + "]");
    }

    /** Builds a {@link Database}; {@link #build()} checks that exactly one of URL and folder is set. */
    public static final class Builder {
        private String url;
        private String user;
        private String password;
        private Path embeddedDir;
        private int poolSize = 10;
        private Duration connectionTimeout = Duration.ofSeconds(2);
        private Duration networkTimeout = Duration.ofSeconds(2);
        private boolean durableCommits = true;
        private int groupCommitWorkers = 1;
        private boolean admissionGroupCommit = true;
        private int admissionQueues;

        private Builder() {}

        public Builder url(String jdbcUrl) {
            this.url = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            return this;
        }

        public Builder user(String user) {
            this.user = user;
            return this;
        }

        public Builder password(String password) {
            this.password = password;
            return this;
        }

        public Builder embedded(Path dir) {
            this.embeddedDir = Objects.requireNonNull(dir, "dir");
            return this;
        }

        public Builder poolSize(int poolSize) {
            this.poolSize = poolSize;
            return this;
        }

        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Whole seconds, 1 or more, or {@link Duration#ZERO} for none; default 2 s. */
        public Builder networkTimeout(Duration timeout) {
            this.networkTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public Builder durableCommits(boolean durable) {
            this.durableCommits = durable;
            return this;
        }

        /**
         * Group commit on (keeping the workers set, at least one) or off; see {@link
         * #groupCommitWorkers(int)}.
         */
        public Builder groupCommit(boolean group) {
            this.groupCommitWorkers = group ? Math.max(1, groupCommitWorkers) : 0;
            return this;
        }

        /** Threads applying grouped charges, 0 (off) to the pool size; default 1. */
        public Builder groupCommitWorkers(int workers) {
            this.groupCommitWorkers = workers;
            return this;
        }

        /** Admissions in shared commits too (ADR 0031); default on. */
        public Builder admissionGroupCommit(boolean group) {
            this.admissionGroupCommit = group;
            return this;
        }

        /** Admission queues (and workers) when admissions share commits, 1 to the pool size; default half the pool. */
        public Builder admissionQueues(int queues) {
            if (queues < 1) {
                throw new IllegalArgumentException("admission queues " + queues + " must be at least 1");
            }
            this.admissionQueues = queues;
            return this;
        }

        public Database build() {
            if ((url == null) == (embeddedDir == null)) {
                throw new IllegalArgumentException(
                        "database: give exactly one of a JDBC URL (--database) or an embedded folder (--embedded-db)");
            }
            if (url != null && !url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException(
                        "database URL '" + url + "' must start with jdbc:postgresql: (only PostgreSQL is supported)");
            }
            if (poolSize < 1 || poolSize > 500) {
                throw new IllegalArgumentException("pool size " + poolSize + " must be between 1 and 500");
            }
            if (groupCommitWorkers < 0 || groupCommitWorkers > poolSize) {
                throw new IllegalArgumentException("group-commit workers " + groupCommitWorkers
                        + " must be between 0 (off) and the pool size " + poolSize);
            }
            if (admissionQueues > poolSize) {
                throw new IllegalArgumentException(
                        "admission queues " + admissionQueues + " must be at most the pool size " + poolSize);
            }
            if (connectionTimeout.compareTo(Duration.ofMillis(250)) < 0) {
                throw new IllegalArgumentException(
                        "connection timeout " + connectionTimeout + " must be at least 250 ms (HikariCP's minimum)");
            }
            if (networkTimeout.isNegative() || networkTimeout.toNanos() % 1_000_000_000L != 0) {
                throw new IllegalArgumentException(
                        "network timeout " + networkTimeout + " must be whole seconds, or 0 for none");
            }
            return new Database(this);
        }
    }
}
