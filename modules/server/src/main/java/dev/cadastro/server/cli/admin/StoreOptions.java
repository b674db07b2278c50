package dev.cadastro.server.cli.admin;

import dev.cadastro.server.cli.CommandFailure;
import dev.cadastro.server.cli.UsageException;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Which store {@code ./cadastro admin} works on: a PostgreSQL URL, an embedded database folder, or a
 * home as {@code demo} uses it. An embedded database that a running {@code serve} or {@code demo} has
 * open is reached through the address it recorded ({@link EmbeddedDatabase#running}); one that is not
 * running is started here. A folder without a database is an error unless {@code --create-db} says to
 * make one: admin never creates a database by accident.
 *
 * <p>Mixed into the group command ({@code admin}, {@code calls}) only. The options are inherited
 * ({@link ScopeType#INHERIT}): picocli adds them to every subcommand and sub-subcommand and binds them all
 * to this one instance, so a flag given before the subcommand or after it lands in the same place, and no
 * subcommand can read a store or a home of its own by mistake.
 */
public final class StoreOptions {
    /** The home {@code demo} uses when none is given; its database is {@code .cadastro/db}. */
    public static final String DEFAULT_HOME = ".cadastro";

    @Option(
            names = "--home",
            paramLabel = "DIR",
            scope = ScopeType.INHERIT,
            description = "A home as demo --home uses it: the embedded database in DIR/db (sms-inbox and the key"
                    + " rotations: the home's files). Without any of --home, --embedded-db and --database: the"
                    + " demo's default home, " + DEFAULT_HOME + ".")
    String home;

    @Option(
            names = "--embedded-db",
            paramLabel = "DIR",
            scope = ScopeType.INHERIT,
            description = "Folder of an embedded PostgreSQL, as serve --embedded-db uses it.")
    String embeddedDb;

    @Option(
            names = "--database",
            paramLabel = "URL",
            scope = ScopeType.INHERIT,
            description = "A PostgreSQL JDBC URL, jdbc:postgresql://host:5432/db?user=u&password=p.")
    String database;

    @Option(
            names = "--create-db",
            scope = ScopeType.INHERIT,
            description = "Initialise a new, empty embedded database when the folder has none (otherwise"
                    + " admin refuses, exit status 3).")
    boolean createDb;

    /**
     * The home a subcommand that reads or writes files under a home ({@code sms-inbox}, the key rotations)
     * works in: {@code --home}, or the default home. Such a subcommand has no database to open, so
     * {@code --embedded-db} or {@code --database} is a usage error rather than silently ignored.
     */
    public Path homeFolder(String subcommand) {
        if (embeddedDb != null || database != null) {
            throw new UsageException(subcommand + " works on the files of a home: give --home DIR (the serve's"
                    + " --sms-dir or the demo's --home), not " + (database != null ? "--database" : "--embedded-db"));
        }
        return nonBlank("--home", homeName());
    }

    /** {@code --home} as given, or the default home. */
    public String homeName() {
        return home != null ? home : DEFAULT_HOME;
    }

    /**
     * The folder of a home's files (export files, recordings): {@code --home}'s {@code files/}, or the
     * default home's, where serve --files puts them by default.
     */
    public Path filesFolder() {
        return nonBlank("--home", homeName()).resolve("files");
    }

    /** The database to open; throws a usage error, or a {@link CommandFailure} naming the folder. */
    public Database resolve() {
        int given = (home != null ? 1 : 0) + (embeddedDb != null ? 1 : 0) + (database != null ? 1 : 0);
        if (given > 1) {
            throw new UsageException("give one of --home, --embedded-db and --database, not several");
        }
        if (database != null) {
            try {
                return operatorTool(Database.builder().url(database));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--database: " + e.getMessage());
            }
        }
        Path dir = embeddedDir();
        Optional<String> running = EmbeddedDatabase.running(dir);
        if (running.isPresent()) {
            return operatorTool(Database.builder().url(running.get()));
        }
        if (!EmbeddedDatabase.exists(dir) && !createDb) {
            throw new CommandFailure("no database in " + dir.toAbsolutePath().normalize()
                    + ": point --home (as given to demo), --embedded-db or --database at an existing one,"
                    + " or add --create-db to start an empty one there");
        }
        return operatorTool(Database.builder().embedded(dir));
    }

    /**
     * An operator's command may rightly wait on a long statement (an audit export, an import behind a
     * running ingest): no network timeout, which bounds a server's requests, not a person at a terminal.
     */
    private static Database operatorTool(Database.Builder builder) {
        return builder.networkTimeout(java.time.Duration.ZERO).build();
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
