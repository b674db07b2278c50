package dev.cadastro.benchmarks.files;

import dev.cadastro.benchmarks.MailingAccount;
import dev.cadastro.benchmarks.RunTimes;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.s3.S3Connection;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.server.CadastroEngine;
import dev.cadastro.server.DumpLoader;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A mailing export written to an object store against the same export written to the local folder,
 * alternated in one run: {@link MailingService#process} (the export worker's whole job: the register
 * scan, the ZIP writer, the upload and its commit, the job's completion in PostgreSQL) over {@link
 * S3FileStore} (an S3-compatible store at {@code --s3-endpoint}, s3proxy on loopback in the recorded
 * run; credentials from the SDK's default chain) and over {@link LocalFolderFileStore}. Each round runs
 * both, in alternating order; the report gives each side's median and the ratio of medians, and the
 * per-round ratios.
 *
 * <pre>
 * java -Xmx2g --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.cadastro.benchmarks.files.ObjectStoreExportRun --work /tmp/os-bench --s3-endpoint http://127.0.0.1:9000 \
 *     --bucket bench [--index DIR] [--leads 50000] [--format csv] [--runs 10] [--warmup 3]
 * </pre>
 */
public final class ObjectStoreExportRun {
    private ObjectStoreExportRun() {}

    public static void main(String[] args) throws Exception {
        Path work = null;
        Path index = null;
        String endpoint = null;
        String bucket = "bench";
        int leads = 50_000;
        int runs = 10;
        int warmup = 3;
        ExportFormat format = ExportFormat.CSV;
        for (int i = 0; i < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--work" -> work = Path.of(value);
                case "--index" -> index = Path.of(value);
                case "--s3-endpoint" -> endpoint = value;
                case "--bucket" -> bucket = value;
                case "--leads" -> leads = Integer.parseInt(value);
                case "--runs" -> runs = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--format" -> format = ExportFormat.valueOf(value.toUpperCase(java.util.Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (work == null || endpoint == null) {
            throw new IllegalArgumentException("usage: --work DIR --s3-endpoint URL [--bucket B] [--index DIR]"
                    + " [--leads N] [--format csv|xlsx] [--runs N] [--warmup N]");
        }
        PrintStream out = System.out;
        Files.createDirectories(work);
        if (index == null) {
            index = work.resolve("index");
            if (LuceneRegister.currentGeneration(index).isEmpty()) {
                int establishments = leads * 6 / 5;
                Path dump = work.resolve("dump");
                DumpGenerator.generate(
                        dump,
                        GeneratorOptions.builder(establishments)
                                .seed(5)
                                .threads(2)
                                .build());
                LoadOptions load = LoadOptions.builder(dump).build();
                DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, establishments));
            }
        }
        Clock clock = Clock.systemUTC();
        S3Connection connection = S3Connection.of(endpoint, null, System.getenv());
        try (LuceneRegister register = LuceneRegister.open(index);
                Store store = Store.open(Database.embedded(work.resolve("db")), clock);
                S3FileStore bucketFiles =
                        S3FileStore.open(connection, S3Location.parse("--s3-endpoint", "s3://" + bucket + "/bench"))) {
            FileStore folder = new LocalFolderFileStore(work.resolve("files"));
            MailingService toFolder = service(register, store, folder, clock);
            MailingService toBucket = service(register, store, bucketFiles, clock);
            MailingAccount bench = MailingAccount.create(store, clock);
            Principal principal = new Principal(bench.key().key(), bench.account());
            MailingRequest request = new MailingRequest(
                    SearchParameters.parse(Map.of("situacao_cadastral", List.of("01", "02", "03", "04", "08"))),
                    leads,
                    format);
            out.printf(
                    "register: %,d establishments (%s); store %s; %s, %,d leads; JVM %s, -Xmx %d MB, %d cores%n",
                    register.published().documents(),
                    index,
                    bucketFiles.location() + " at " + endpoint,
                    format,
                    leads,
                    Runtime.version(),
                    Runtime.getRuntime().maxMemory() >> 20,
                    Runtime.getRuntime().availableProcessors());
            for (int i = 0; i < warmup; i++) {
                export(toFolder, store, principal, request, folder);
                export(toBucket, store, principal, request, bucketFiles);
            }
            long[] local = new long[runs];
            long[] s3 = new long[runs];
            long bytes = 0;
            for (int i = 0; i < runs; i++) {
                if (i % 2 == 0) {
                    local[i] = export(toFolder, store, principal, request, folder)[0];
                    long[] r = export(toBucket, store, principal, request, bucketFiles);
                    s3[i] = r[0];
                    bytes = r[1];
                } else {
                    long[] r = export(toBucket, store, principal, request, bucketFiles);
                    s3[i] = r[0];
                    bytes = r[1];
                    local[i] = export(toFolder, store, principal, request, folder)[0];
                }
                out.printf(
                        "round %d: folder %.1f ms, bucket %.1f ms, ratio %.2f%n",
                        i + 1, local[i] / 1e6, s3[i] / 1e6, (double) s3[i] / local[i]);
            }
            RunTimes.report(out, "folder (LocalFolderFileStore)", local);
            RunTimes.report(out, "bucket (S3FileStore, " + bytes + " bytes a file)", s3);
            out.printf(
                    "ratio bucket / folder (medians): %.2f%n", (double) RunTimes.median(s3) / RunTimes.median(local));
        }
    }

    private static MailingService service(LuceneRegister register, Store store, FileStore files, Clock clock) {
        return CadastroEngine.mailingService(register, store, files, clock, Duration.ofDays(7), () -> {});
    }

    /** One export, created then processed here: nanoseconds of {@code process}, and the file's bytes. */
    private static long[] export(
            MailingService mailing, Store store, Principal principal, MailingRequest request, FileStore files)
            throws Exception {
        MailingJob job = mailing.create(principal, request, "bench." + System.nanoTime());
        var claimed = store.mailingJobs()
                .claim("bench", Clock.systemUTC().instant(), Duration.ofMinutes(5))
                .orElseThrow();
        if (!claimed.work().id().equals(job.id())) {
            throw new IllegalStateException("claimed " + claimed.work().id() + ", not " + job.id());
        }
        long t0 = System.nanoTime();
        mailing.process(claimed);
        long t = System.nanoTime() - t0;
        MailingJob done = mailing.status(principal, job.id());
        if (!(done.outcome().orElse(null) instanceof MailingJob.Delivered d) || d.delivered() != request.quantidade()) {
            throw new IllegalStateException(
                    "export " + job.id() + " did not deliver " + request.quantidade() + " leads: " + done);
        }
        long bytes = d.fileBytes();
        files.delete(d.fileKey());
        return new long[] {t, bytes};
    }
}
