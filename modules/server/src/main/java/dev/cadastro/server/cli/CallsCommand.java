package dev.cadastro.server.cli;

import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.providers.calls.CallFileException;
import dev.cadastro.providers.calls.JsonlCallFile;
import dev.cadastro.server.cli.admin.StoreOptions;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro calls ...}: the call-records service's data, on the store a server uses (see {@link
 * StoreOptions}), also while that server runs. Today one subcommand: {@code import}, the calls of a
 * real exchange from a JSON Lines file.
 */
@Command(
        name = "calls",
        synopsisSubcommandLabel = "SUBCOMMAND",
        description = {
            "Calls of the call-records service, on the store a server uses; works while serve or demo runs.",
            "The store flags may come before or after the subcommand."
        },
        subcommands = {HelpCommand.class, CallsCommand.Import.class})
public final class CallsCommand extends StoreGroupCommand {
    /** Calls ingested per transaction. */
    static final int BATCH = 1_000;

    public CallsCommand() {
        this(Clock.systemUTC());
    }

    public CallsCommand(Clock clock) {
        super(clock);
    }

    @Command(
            name = "import",
            description = {
                "Import calls exported from a real exchange: one JSON object a line, with the fields of the",
                "wire (id, id_ocorrencia, funcionario_id, funcionario_nome, datahistorico, horario_inicio,",
                "duracao_gravacao, ocorrencia_codigo, ocorrencia_descricao) plus agente (login), fila,",
                "gravacao (the WAV file, relative to FILE's folder) and arquivada_em. Times in ISO 8601,",
                "without an offset in Brasilia time. Every line is checked before anything is written: a",
                "bad line imports nothing. Calls are then written 1,000 a transaction; should the database",
                "fail part-way (a lost connection), the batches already committed stay, and running the",
                "same file again is safe: it changes nothing already imported. A later datahistorico is a",
                "reclassification."
            })
    static final class Import extends CliCommand {
        @ParentCommand
        CallsCommand calls;

        @Parameters(index = "0", paramLabel = "FILE", description = "The .jsonl file.")
        String file;

        @Option(
                names = "--integration",
                paramLabel = "NAME",
                required = true,
                description = "The integration the calls belong to (./cadastro admin calls-token create makes one).")
        String integration;

        @Option(
                names = "--files",
                paramLabel = "DIR|s3://BUCKET[/PREFIX]",
                description = "Where the recording files go, as serve --files names it: a folder (default: --home's"
                        + " files/, or " + StoreOptions.DEFAULT_HOME + "/files) or a bucket.")
        String files;

        @Mixin
        ObjectStoreFlags objectStore;

        @Override
        public Integer call() {
            Path jsonl = path("FILE", file);
            if (!Files.isRegularFile(jsonl)) {
                throw new CommandFailure("no file " + jsonl.toAbsolutePath().normalize());
            }
            if (!Integration.validName(integration)) {
                throw usage("--integration '" + integration
                        + "' must be 1 to 63 lower-case letters, digits, - or _, starting with a letter or digit");
            }
            StoreOptions where = calls.store();
            java.util.Optional<dev.cadastro.s3.S3FileStore> bucket =
                    objectStore.fileStore("--files", files, this::usage);
            Path folder = bucket.isPresent() ? null : files != null ? path("--files", files) : where.filesFolder();
            try (Store opened = calls.open()) {
                Integration target = opened.callTokens()
                        .integration(integration)
                        .orElseThrow(() -> new CommandFailure("no integration '" + integration
                                + "' (./cadastro admin calls-token create --integration " + integration
                                + " creates it)"));
                JsonlCallFile read;
                try {
                    read = JsonlCallFile.read(jsonl, target.id());
                } catch (CallFileException e) {
                    throw new CommandFailure(jsonl + ": " + e.getMessage() + "; nothing was imported");
                }
                JsonlCallFile.Imported done;
                try {
                    done = read.importInto(
                            opened.calls(),
                            bucket.isPresent() ? bucket.get() : new LocalFolderFileStore(folder),
                            BATCH);
                } catch (RuntimeException e) {
                    // Every line passed the checks, so this is the database (or the files folder) failing
                    // part-way: say plainly that earlier batches stay, and that a re-run is the remedy.
                    throw new CommandFailure(jsonl + ": the import stopped part-way: " + e.getMessage()
                            + "; the batches committed before it stay imported, and importing the same file"
                            + " again is safe (it changes nothing already imported)");
                }
                print(out(), jsonl, target, done);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                bucket.ifPresent(dev.cadastro.s3.S3FileStore::close);
            }
            return Cli.DONE;
        }

        private static void print(PrintStream out, Path jsonl, Integration target, JsonlCallFile.Imported done) {
            CallStore.IngestResult r = done.result();
            out.println(done.calls() + " calls read from " + jsonl + " into integration " + target.name() + ": "
                    + r.inserted() + " inserted, " + r.reclassified() + " reclassified, " + r.archived()
                    + " archived, " + r.unchanged() + " unchanged; " + done.recordingsCopied()
                    + " recordings copied, " + r.deliveriesQueued() + " push deliveries queued");
        }
    }
}
