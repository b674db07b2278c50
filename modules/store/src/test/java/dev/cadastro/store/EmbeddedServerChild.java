package dev.cadastro.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Run in a child JVM by {@link EmbeddedCrashTest}: starts the embedded server on {@code args[0]}, writes a
 * row, prints {@code READY <postmaster pid>}, then waits for its standard input to close (it is killed
 * before that).
 */
public final class EmbeddedServerChild {
    private EmbeddedServerChild() {}

    public static void main(String[] args) throws Exception {
        EmbeddedDatabase db = EmbeddedDatabase.start(Path.of(args[0]), false);
        try (Connection c = DriverManager.getConnection(db.jdbcUrl());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS crash_marker (v text)");
            s.execute("INSERT INTO crash_marker VALUES ('written before the kill')");
        }
        System.out.println("READY " + db.postmasterPid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // Until killed, or until the parent closes the pipe.
        }
        db.close();
    }
}
