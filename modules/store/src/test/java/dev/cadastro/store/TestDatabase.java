package dev.cadastro.store;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.UUID;

/**
 * One real embedded PostgreSQL per test JVM, started on first use in {@code target/}, with the schema
 * migrated. Test classes isolate themselves by creating their own accounts.
 */
final class TestDatabase {
    private static Store store;
    private static EmbeddedDatabase server;

    private TestDatabase() {}

    static synchronized Store store() {
        if (store == null) {
            try {
                Path dir = Files.createTempDirectory(Path.of("target"), "pg-tests-");
                server = EmbeddedDatabase.start(dir, false);
                store = Store.open(
                        Database.builder().url(server.jdbcUrl()).poolSize(24).build(), Clock.systemUTC());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    store.close();
                    server.close();
                }));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return store;
    }

    /** A new, empty database on the shared server; its JDBC URL. */
    static String freshDatabase() {
        store();
        String name = "t_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return server.jdbcUrl().replace("/postgres?", "/" + name + "?");
    }

    /** A data source on {@code url} outside any pool: for migrating a database step by step. */
    static org.postgresql.ds.PGSimpleDataSource dataSource(String url) {
        org.postgresql.ds.PGSimpleDataSource db = new org.postgresql.ds.PGSimpleDataSource();
        db.setURL(url);
        return db;
    }

    /**
     * A new account written by plain SQL on {@code s}, for a schema migrated only part of the way, where
     * the store cannot run: its id.
     */
    static long accountRow(Statement s, String name) throws SQLException {
        try (java.sql.ResultSet rs = s.executeQuery("INSERT INTO accounts (name, plan_name, daily_request_limit,"
                + " created_at) VALUES ('" + name + "', 'p', 10, now()) RETURNING id")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A new account funded with {@code credits} credits and {@code sms} SMS credits. */
    static Account fundedAccount(long credits, long sms) {
        return fundedAccount(store(), credits, sms);
    }

    /** A new account on {@code s} funded with {@code credits} credits and {@code sms} SMS credits. */
    static Account fundedAccount(Store s, long credits, long sms) {
        Account account = s.accounts().create("test " + UUID.randomUUID(), new Plan("teste", 1000));
        if (credits > 0) {
            s.ledger()
                    .topUp(
                            account.id(),
                            CreditKind.CREDITS,
                            credits,
                            IdempotencyKey.of("topup:" + UUID.randomUUID()),
                            "carga inicial");
        }
        if (sms > 0) {
            s.ledger()
                    .topUp(
                            account.id(),
                            CreditKind.SMS_CREDITS,
                            sms,
                            IdempotencyKey.of("topup:" + UUID.randomUUID()),
                            "carga inicial");
        }
        return account;
    }
}
