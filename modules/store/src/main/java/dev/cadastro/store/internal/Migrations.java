package dev.cadastro.store.internal;

import dev.cadastro.core.internal.Texts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Applies the versioned SQL scripts under {@code db/migration} in order, each in its own transaction
 * together with its row in {@code schema_version}. A session-level advisory lock makes servers that
 * start at the same time take turns: the second finds the versions applied and does nothing. A script
 * changed after it was applied is refused by its SHA-256 checksum.
 */
public final class Migrations {
    private static final System.Logger LOG = System.getLogger(Migrations.class.getName());

    /** The scripts, in order. A new script is added here and never edited once released. */
    static final List<String> SCRIPTS = List.of(
            "V1__accounts_keys_ledger.sql",
            "V2__rate_limits.sql",
            "V3__charge_batch.sql",
            "V4__idempotency.sql",
            "V5__mailing_jobs.sql",
            "V6__credit_report_cache.sql",
            "V7__sms_otp.sql",
            "V8__person_lookup.sql",
            "V9__call_records.sql",
            "V10__admission_batch.sql",
            "V11__sms_dispatch_indexes.sql",
            "V12__sms_dispatch_domains.sql",
            "V13__sms_sending_table.sql",
            "V14__store_require.sql",
            "V15__company_batch.sql",
            "V16__call_feed.sql",
            "V17__ledger_batch_checks.sql",
            "V18__balance_checks_read_committed.sql",
            "V19__mailing_reference.sql");

    /** Arbitrary constant naming the lock: "cadastro" in ASCII. */
    private static final long LOCK = 0x6361_6461_7374_726FL;

    private Migrations() {}

    /** Applies what is missing and returns the versions applied by this call. */
    public static List<Integer> apply(DataSource dataSource, Clock clock) {
        return apply(dataSource, clock, Integer.MAX_VALUE);
    }

    /**
     * Applies the missing scripts up to version {@code through} only: for tests of a script against the
     * rows an older schema holds.
     */
    public static List<Integer> apply(DataSource dataSource, Clock clock, int through) {
        return Jdbc.autoCommit(dataSource, "schema migration", c -> {
            // A migration may rewrite a large table, and the lock waits for another server's migrations.
            Jdbc.allowLongStatements(c);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_lock(" + LOCK + ")");
            }
            try {
                return applyLocked(c, clock, through);
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
                }
            }
        });
    }

    private static List<Integer> applyLocked(Connection c, Clock clock, int through) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                    + " version integer PRIMARY KEY, script text NOT NULL, checksum text NOT NULL,"
                    + " applied_at timestamptz NOT NULL)");
        }
        Map<Integer, String> applied = new HashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT version, checksum FROM schema_version")) {
            while (rs.next()) {
                applied.put(rs.getInt(1), rs.getString(2));
            }
        }
        List<Integer> done = new java.util.ArrayList<>();
        for (String script : SCRIPTS) {
            int version = version(script);
            if (version > through) {
                break;
            }
            String sql = read(script);
            String checksum = Texts.sha256Hex(sql);
            String existing = applied.get(version);
            if (existing != null) {
                if (!existing.equals(checksum)) {
                    throw new IllegalStateException("migration " + script + " was changed after it was applied"
                            + " (checksum " + checksum + ", applied " + existing + "): add a new script instead");
                }
                continue;
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement();
                    PreparedStatement record = c.prepareStatement(
                            "INSERT INTO schema_version (version, script, checksum, applied_at) VALUES (?, ?, ?, ?)")) {
                s.execute(sql);
                Jdbc.set(record, version, script, checksum, Jdbc.timestamp(clock.instant()));
                record.executeUpdate();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
            LOG.log(System.Logger.Level.INFO, "applied migration {0}", script);
            done.add(version);
        }
        int newest = version(SCRIPTS.get(SCRIPTS.size() - 1));
        for (int version : applied.keySet()) {
            if (version > newest) {
                throw new IllegalStateException("the database has schema version " + version
                        + ", newer than this build's " + newest + ": upgrade Cadastro");
            }
        }
        return done;
    }

    static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }

    private static String read(String script) {
        try (InputStream in = Migrations.class.getResourceAsStream("/db/migration/" + script)) {
            if (in == null) {
                throw new IllegalStateException("migration script db/migration/" + script + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
