package dev.cadastro.store.internal;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;

/**
 * Tells the pool to drop a connection whose statement failed because the server is read-only (SQLSTATE
 * 25006): after a failover, a connection to the demoted node stays open and answers every write with
 * that error, and HikariCP, which drops connections only on class 08 and the shutdown states, would hand
 * it out again until its lifetime ends. Dropped, the next connection is opened through the URL, whose
 * {@code targetServerType=primary} finds the new primary.
 */
public final class EvictOnReadOnly implements SQLExceptionOverride {
    /** SQLSTATE read_only_sql_transaction: a write sent to a standby or a read-only session. */
    public static final String READ_ONLY = "25006";

    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        return readOnly(e) ? SQLExceptionOverride.Override.MUST_EVICT : SQLExceptionOverride.Override.CONTINUE_EVICT;
    }

    /** Whether the failure, or one it carries, is a write refused by a read-only server. */
    public static boolean readOnly(SQLException e) {
        int depth = 0;
        for (Throwable t = e; t != null && depth < 10; depth++) {
            if (t instanceof SQLException sql && READ_ONLY.equals(sql.getSQLState())) {
                return true;
            }
            Throwable next = t instanceof SQLException sql ? sql.getNextException() : null;
            t = next != null ? next : t.getCause();
        }
        return false;
    }
}
