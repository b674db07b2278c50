package dev.cadastro.server.cli.admin;

import dev.cadastro.server.cli.CommandFailure;
import dev.cadastro.server.cli.UsageException;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Which store {@code ./cadastro admin} works on: a PostgreSQL URL, an embedded database folder, or a
 * home as {@code demo} uses it. An embedded database that a running {@code serve} or {@code demo} has
 * open is reached through the address it recorded ({@link EmbeddedDatabase#running}); one that is not
 * running is started here. A folder without a database is an error unless {@code --create-db} says to
 * make one: admin never creates a database by accident.
 */
public final class StoreOptions {
    /** The home {@code demo} uses when none is given; its database is {@code .cadastro/db}. */
    public static final String DEFAULT_HOME = ".cadastro";

    @Option(
            names = "--home",
            paramLabel = "DIR",
            description = "A home as demo --home uses it: the embedded database in DIR/db. Without any of"
                    + " --home, --embedded-db and --database: the demo's default home, " + DEFAULT_HOME + "/db.")
    String home;

    @Option(
            names = "--embedded-db",
            paramLabel = "DIR",
            description = "Folder of an embedded PostgreSQL, as serve --embedded-db uses it.")
    String embeddedDb;

    @Option(
            names = "--database",
            paramLabel = "URL",
            description = "A PostgreSQL JDBC URL, jdbc:postgresql://host:5432/db?user=u&password=p.")
    String database;

    @Option(
            names = "--create-db",
            description = "Initialise a new, empty embedded database when the folder has none (otherwise"
                    + " admin refuses, exit status 3).")
    boolean createDb;

    /** These options where any was given, else {@code before}'s (those given before the subcommand). */
    public StoreOptions or(StoreOptions before) {
        if (before == null) {
            return this;
        }
        StoreOptions merged = new StoreOptions();
        boolean own = home != null || embeddedDb != null || database != null;
        merged.home = own ? home : before.home;
        merged.embeddedDb = own ? embeddedDb : before.embeddedDb;
        merged.database = own ? database : before.database;
        merged.createDb = createDb || before.createDb;
        return merged;
    }

    /**
     * The folder of a home's files (export files, recordings): {@code --home}'s {@code files/}, or the
     * default home's, where serve --files puts them by default.
     */
    public Path filesFolder() {
        return nonBlank("--home", home != null ? home : DEFAULT_HOME).resolve("files");
    }

    /** The database to open; throws a usage error, or a {@link CommandFailure} naming the folder. */
    public Database resolve() {
        int given = (home != null ? 1 : 0) + (embeddedDb != null ? 1 : 0) + (database != null ? 1 : 0);
        if (given > 1) {
            throw new UsageException("give one of --home, --embedded-db and --database, not several");
        }
        if (database != null) {
            try {
                return Database.url(database);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--database: " + e.getMessage());
            }
        }
        Path dir = embeddedDir();
        Optional<String> running = EmbeddedDatabase.running(dir);
        if (running.isPresent()) {
            return Database.url(running.get());
        }
        if (!EmbeddedDatabase.exists(dir) && !createDb) {
            throw new CommandFailure("no database in " + dir.toAbsolutePath().normalize()
                    + ": point --home (as given to demo), --embedded-db or --database at an existing one,"
                    + " or add --create-db to start an empty one there");
        }
        return Database.embedded(dir);
    }

    private Path embeddedDir() {
        if (embeddedDb != null) {
            return nonBlank("--embedded-db", embeddedDb);
        }
        return nonBlank("--home", home != null ? home : DEFAULT_HOME).resolve("db");
    }

    private static Path nonBlank(String option, String value) {
        if (value.isBlank()) {
            throw new UsageException(option + " must name a folder");
        }
        return Path.of(value);
    }
}
