package dev.cadastro.loader;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import dev.cadastro.loader.LoadSummary.FamilyCount;
import dev.cadastro.loader.internal.Arena;
import dev.cadastro.loader.internal.CompanyStore;
import dev.cadastro.loader.internal.CsvReader;
import dev.cadastro.loader.internal.DebtReader;
import dev.cadastro.loader.internal.DumpFile;
import dev.cadastro.loader.internal.DumpFolder;
import dev.cadastro.loader.internal.EstablishmentAssembler;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.internal.PartnerRow;
import dev.cadastro.loader.internal.RejectsLog;
import dev.cadastro.loader.internal.RootSet;
import dev.cadastro.loader.internal.SimplesStore;
import dev.cadastro.loader.internal.Tables;
import dev.cadastro.loader.internal.Values;
import dev.cadastro.loader.internal.VerifiedEntryStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads one monthly dump into a sink, in the order the join needs: the structure is checked and the
 * lookup tables read when the reader is opened; then {@link #readInto} reads Empresas and Simples into
 * off-heap stores keyed by root, flags PGFN debt, streams Estabelecimentos through the join to the sink
 * on {@link LoadOptions#indexThreads()} threads. The Socios rows (the partner structure) are read on a
 * thread of their own from the start, while Empresas and Simples leave the second core idle, and
 * delivered to a {@link PartnerSink} grouped by root; without one they are only read through their CRC
 * check. Every byte comes straight from the ZIP entries.
 *
 * <p>A bad row goes to the rejects file and the count of its reason; a structural fault (see {@link
 * StructuralFaultException}) stops the read with the exception.
 */
public final class DumpReader {
    private static final System.Logger LOG = System.getLogger(DumpReader.class.getName());
    private static final int TICK = 1 << 13;
    private static final List<Establishment> POISON = List.of();

    private final LoadOptions options;
    private final DumpFolder folder;
    private final Lookups lookups;
    private final long[] notes = new long[Note.values().length];
    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final long startNanos = System.nanoTime();
    private final long bytesTotal;
    private final AtomicLong delivered = new AtomicLong();
    private long bytesDone;
    /** Bytes of the Socios ZIPs read (through their CRC check) by the Socios thread. */
    private final AtomicLong verifiedBytes = new AtomicLong();

    /** The PGFN files read, once read; null without debt files. */
    private LoadSummary.DebtFiles debtFiles;

    private volatile boolean stopVerifier;
    /** Rows of Socios read, delivered and rejected by reason, as {@link #counts(Family)} keeps them. */
    private final long[] partnerCounts = new long[2 + RejectReason.values().length];
    /** The Socios thread's notes, added to the others when it is done. */
    private final long[] partnerNotes = new long[Note.values().length];

    private final AtomicReference<Throwable> verifyFailure = new AtomicReference<>();
    private long nextReport;
    private String phase = "Lookups";

    private DumpReader(LoadOptions options, DumpFolder folder, Lookups lookups) {
        this.options = options;
        this.folder = folder;
        this.lookups = lookups;
        this.bytesTotal = folder.size(Family.values()) + DebtReader.size(options.debt());
    }

    /** Checks the dump's structure and reads its lookup tables. */
    public static DumpReader open(LoadOptions options) {
        DumpFolder folder = DumpFolder.scan(options.dump());
        Map<Family, Map<String, String>> tables = new EnumMap<>(Family.class);
        for (Family f : Family.values()) {
            if (f.isLookup()) {
                try (CsvReader r = new CsvReader(VerifiedEntryStream.open(folder.file(f)))) {
                    tables.put(f, Tables.codeTable(r));
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "cannot read " + folder.file(f).zipName(), e);
                }
            }
        }
        DumpReader reader = new DumpReader(options, folder, Tables.lookups(tables));
        reader.bytesDone = folder.size(
                Family.CNAES, Family.MOTIVOS, Family.MUNICIPIOS, Family.NATUREZAS, Family.PAISES, Family.QUALIFICACOES);
        return reader;
    }

    /** The dump's lookup tables (with the bundled IBGE codes). */
    public Lookups lookups() {
        return lookups;
    }

    /** The extraction date code shared by every file ({@code D60808}). */
    public String dateCode() {
        return folder.dateCode();
    }

    /**
     * Reads the dump into the sink; the Socios ZIPs are only read through their CRC check (when {@link
     * LoadOptions#verifyUnread()} says so).
     *
     * @throws StructuralFaultException when a ZIP fails its CRC check or is corrupt
     */
    public LoadSummary readInto(EstablishmentSink sink) {
        return readInto(sink, null);
    }

    /**
     * Reads the dump into the sinks: establishments to {@code sink}, partner rows to {@code partners}
     * (null: the Socios ZIPs are only CRC-checked, when {@link LoadOptions#verifyUnread()} says so).
     *
     * @throws StructuralFaultException when a ZIP fails its CRC check or is corrupt
     */
    public LoadSummary readInto(EstablishmentSink sink, PartnerSink partners) {
        long estimated = Math.max(1024, folder.size(Family.ESTABELECIMENTOS) / 240);
        boolean readSocios = partners != null || options.verifyUnread();
        if (!readSocios) {
            bytesDone += folder.size(Family.SOCIOS);
        }
        try (RejectsLog rejects = new RejectsLog(options.rejects());
                CompanyStore companies = new CompanyStore(new Arena(options.scratch(), "empresas"));
                Arena simplesArena = new Arena(options.scratch(), "simples")) {
            // The Socios rows need nothing the other files give, so they are read on a thread of their own
            // from the start: it takes the second core while Empresas and Simples are read on one.
            Thread socios = null;
            if (readSocios) {
                socios = new Thread(
                        () -> {
                            try {
                                if (partners == null) {
                                    for (DumpFile f : folder.files(Family.SOCIOS)) {
                                        drain(f);
                                    }
                                } else {
                                    readSocios(partners, rejects);
                                }
                            } catch (Throwable t) {
                                verifyFailure.set(t);
                            }
                        },
                        partners == null ? "loader-verify" : "loader-socios");
                socios.setDaemon(true);
                socios.start();
            }
            try {
                SimplesStore simples = new SimplesStore(simplesArena);
                for (DumpFile f : folder.files(Family.EMPRESAS)) {
                    readEmpresas(f, companies, rejects);
                }
                readSimples(folder.file(Family.SIMPLES), simples, rejects);
                RootSet debt = new RootSet();
                if (options.debt() != null) {
                    phase = "PGFN";
                    long[] c = counts.computeIfAbsent("PGFN", k -> new long[2 + RejectReason.values().length]);
                    DebtReader.Read read = DebtReader.read(options.debt(), debt, rejects, c, notes);
                    bytesDone += read.bytes();
                    debtFiles = new LoadSummary.DebtFiles(
                            options.debt().toAbsolutePath().normalize(), read.files(), read.csvs(), read.references());
                }
                EstablishmentAssembler assembler =
                        new EstablishmentAssembler(companies, simples, debt, (int) Math.min(estimated, 1 << 28), notes);
                readEstabelecimentos(assembler, sink, rejects);
                if (socios != null) {
                    phase = Family.SOCIOS.zipBase();
                    while (socios.isAlive()) {
                        socios.join(200);
                        report(false);
                    }
                    verifierFailed();
                }
                report(true);
            } finally {
                // Stopped and joined before the rejects file closes: the Socios thread writes to it.
                stopVerifier = true;
                if (socios != null) {
                    joinUninterruptibly(socios);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoaderException("the load was interrupted", e);
        }
        if (partners != null) {
            counts.put(Family.SOCIOS.zipBase(), partnerCounts);
            for (int i = 0; i < notes.length; i++) {
                notes[i] += partnerNotes[i];
            }
        }
        Map<String, FamilyCount> families = new LinkedHashMap<>();
        counts.forEach((family, c) -> {
            Map<RejectReason, Long> rejected = new EnumMap<>(RejectReason.class);
            for (RejectReason reason : RejectReason.values()) {
                if (c[2 + reason.ordinal()] > 0) {
                    rejected.put(reason, c[2 + reason.ordinal()]);
                }
            }
            families.put(family, new FamilyCount(c[0], c[1], rejected));
        });
        Map<Note, Long> noted = new EnumMap<>(Note.class);
        for (Note n : Note.values()) {
            if (notes[n.ordinal()] > 0) {
                noted.put(n, notes[n.ordinal()]);
            }
        }
        return new LoadSummary(
                folder.dateCode(), families, noted, delivered.get(), elapsed(), options.rejects(), null, debtFiles);
    }

    private long[] counts(Family family) {
        return counts.computeIfAbsent(family.zipBase(), k -> new long[2 + RejectReason.values().length]);
    }

    /** Common row checks; the reason, or null when the row is well-formed. */
    private static RejectReason shape(CsvReader r, Family family) {
        if (r.oversized()) {
            return RejectReason.OVERSIZED;
        }
        if (r.unterminated()) {
            return RejectReason.UNTERMINATED_QUOTE;
        }
        return r.fieldCount() == family.columns() ? null : RejectReason.COLUMN_COUNT;
    }

    private void reject(RejectsLog rejects, long[] c, DumpFile f, CsvReader r, RejectReason reason) {
        c[2 + reason.ordinal()]++;
        rejects.reject(f.entryName(), r.lineNumber(), reason, r.rawText());
    }

    private CsvReader open(DumpFile f) {
        phase = f.family().zipBase();
        LOG.log(System.Logger.Level.DEBUG, "reading {0} ({1})", f.zipName(), f.entryName());
        return new CsvReader(VerifiedEntryStream.open(f));
    }

    private void readEmpresas(DumpFile f, CompanyStore companies, RejectsLog rejects) {
        readRows(f, Family.EMPRESAS, rejects, r -> {
            byte[] b = r.bytes();
            int cs = r.start(4);
            int cl = r.length(4);
            long capital = Values.capitalCentavos(b, cs, cl);
            return switch (companies.add(r, capital)) {
                case ADDED -> {
                    if (capital == Values.NO_CAPITAL && cl > 0) {
                        notes[(isPlaceholder(b, cs, cl) ? Note.CAPITAL_PLACEHOLDER : Note.CAPITAL_INVALID).ordinal()]++;
                    }
                    yield null;
                }
                case DUPLICATE -> RejectReason.DUPLICATE;
                case INVALID_ROOT -> RejectReason.INVALID_CNPJ;
                case FIELD_TOO_LONG -> RejectReason.FIELD_TOO_LONG;
            };
        });
    }

    /** What a family does with one well-formed row: null when it took the row, else why it refused it. */
    @FunctionalInterface
    private interface RowHandler {
        RejectReason accept(CsvReader row);
    }

    /**
     * Reads one file of a family: every row is counted, checked for its shape, handed to the family's
     * handler when well-formed, and counted as delivered or written to the rejects file; progress is
     * reported every {@value #TICK} rows.
     */
    private void readRows(DumpFile f, Family family, RejectsLog rejects, RowHandler handler) {
        long[] c = counts(family);
        try (CsvReader r = open(f)) {
            long base = bytesDone;
            while (r.next()) {
                c[0]++;
                RejectReason bad = shape(r, family);
                if (bad == null) {
                    bad = handler.accept(r);
                }
                if (bad == null) {
                    c[1]++;
                } else {
                    reject(rejects, c, f, r, bad);
                }
                if ((c[0] & (TICK - 1)) == 0) {
                    bytesDone = base + r.bytesRead();
                    report(false);
                }
            }
            bytesDone = base + r.bytesRead();
            notes[Note.BLANK_LINE.ordinal()] += r.blankLines();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f.zipName(), e);
        }
    }

    private static boolean isPlaceholder(byte[] b, int s, int len) {
        int digits = 0;
        for (int i = s; i < s + len && b[i] != ',' && b[i] != '.'; i++) {
            if (b[i] != '9') {
                return false;
            }
            digits++;
        }
        return digits == 12;
    }

    private void readSimples(DumpFile f, SimplesStore simples, RejectsLog rejects) {
        readRows(f, Family.SIMPLES, rejects, r -> {
            byte[] b = r.bytes();
            int result = simples.add(
                    b,
                    r.start(0),
                    r.length(0),
                    SimplesStore.flag(b, r.start(1), r.length(1)),
                    date(r, 2),
                    date(r, 3),
                    SimplesStore.flag(b, r.start(4), r.length(4)),
                    date(r, 5),
                    date(r, 6));
            return result == 0 ? null : result < 0 ? RejectReason.INVALID_CNPJ : RejectReason.DUPLICATE;
        });
    }

    private int date(CsvReader r, int field) {
        return EstablishmentAssembler.date(r.bytes(), r.start(field), r.length(field), notes);
    }

    private void readEstabelecimentos(EstablishmentAssembler assembler, EstablishmentSink sink, RejectsLog rejects) {
        counts(Family.ESTABELECIMENTOS); // listed in the summary even when no file of it was read
        int threads = options.indexThreads();
        BlockingQueue<List<Establishment>> queue = new ArrayBlockingQueue<>(threads * 4);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> index(queue, sink, failure), "loader-index-" + i);
            t.setDaemon(true);
            t.start();
            workers.add(t);
        }
        boolean finished = false;
        try {
            // The batch being filled; the row handler replaces it when it hands one off.
            final class Filling {
                List<Establishment> batch = new ArrayList<>(options.batchSize());
            }
            Filling filling = new Filling();
            for (DumpFile f : folder.files(Family.ESTABELECIMENTOS)) {
                readRows(f, Family.ESTABELECIMENTOS, rejects, r -> {
                    if (!assembler.assemble(r)) {
                        return assembler.rejected();
                    }
                    filling.batch.add(assembler.establishment());
                    if (filling.batch.size() == options.batchSize()) {
                        handOff(queue, filling.batch, failure);
                        filling.batch = new ArrayList<>(options.batchSize());
                    }
                    return null;
                });
            }
            if (!filling.batch.isEmpty()) {
                handOff(queue, filling.batch, failure);
            }
            finished = true;
        } finally {
            if (!finished) {
                failure.compareAndSet(null, new CancellationMarker());
                queue.clear();
            }
            for (int i = 0; i < threads; i++) {
                putUninterruptibly(queue, POISON, failure);
            }
            for (Thread t : workers) {
                joinUninterruptibly(t);
            }
        }
        Throwable t = failure.get();
        if (t != null && !(t instanceof CancellationMarker)) {
            throw new LoaderException("the index rejected an establishment: " + t, t);
        }
    }

    /** Marks a read that stopped early, so the index threads stop too. */
    private static final class CancellationMarker extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CancellationMarker() {
            super("the read stopped", null, false, false);
        }
    }

    private void handOff(
            BlockingQueue<List<Establishment>> queue, List<Establishment> batch, AtomicReference<Throwable> failure) {
        try {
            while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    throw new LoaderException("the index failed: " + failure.get(), failure.get());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoaderException("the load was interrupted", e);
        }
        if (failure.get() != null) {
            throw new LoaderException("the index failed: " + failure.get(), failure.get());
        }
    }

    private static void putUninterruptibly(
            BlockingQueue<List<Establishment>> queue, List<Establishment> item, AtomicReference<Throwable> failure) {
        while (true) {
            try {
                if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                    return;
                }
                if (failure.get() != null) {
                    queue.clear();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                queue.clear();
            }
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void index(
            BlockingQueue<List<Establishment>> queue, EstablishmentSink sink, AtomicReference<Throwable> failure) {
        try {
            while (true) {
                List<Establishment> batch = queue.take();
                if (batch == POISON) {
                    return;
                }
                if (failure.get() != null) {
                    continue;
                }
                for (Establishment e : batch) {
                    sink.add(e);
                }
                delivered.addAndGet(batch.size());
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            // Keep draining so the reader never blocks on a full queue.
            while (true) {
                try {
                    if (queue.take() == POISON) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Reads the Socios rows (on their own thread): each well-formed row becomes a partner of its root,
     * consecutive rows of one root go to the sink in one call; a bad row goes to the rejects file.
     */
    private void readSocios(PartnerSink sink, RejectsLog rejects) {
        long[] c = partnerCounts;
        long t0 = System.nanoTime();
        PartnerRow row = new PartnerRow(lookups.qualificacoes(), partnerNotes);
        List<Partner> run = new ArrayList<>();
        CnpjRoot runRoot = null;
        for (DumpFile f : folder.files(Family.SOCIOS)) {
            try (CsvReader r = new CsvReader(VerifiedEntryStream.open(f))) {
                long reported = 0;
                while (!stopVerifier && r.next()) {
                    c[0]++;
                    RejectReason bad = shape(r, Family.SOCIOS);
                    if (bad == null && !row.read(r)) {
                        bad = row.rejected();
                    }
                    if (bad == null) {
                        c[1]++;
                        if (runRoot != null && (!runRoot.equals(row.root()) || run.size() >= RUN_LIMIT)) {
                            deliver(sink, runRoot, run);
                            run = new ArrayList<>();
                        }
                        runRoot = row.root();
                        run.add(row.partner());
                    } else {
                        c[2 + bad.ordinal()]++;
                        rejects.reject(f.entryName(), r.lineNumber(), bad, r.rawText());
                    }
                    if ((c[0] & (TICK - 1)) == 0) {
                        verifiedBytes.addAndGet(r.bytesRead() - reported);
                        reported = r.bytesRead();
                    }
                }
                verifiedBytes.addAndGet(r.bytesRead() - reported);
                partnerNotes[Note.BLANK_LINE.ordinal()] += r.blankLines();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f.zipName(), e);
            }
        }
        if (!run.isEmpty() && !stopVerifier) {
            deliver(sink, runRoot, run);
        }
        // The figure that says whether the partners lengthen a load: done before the establishments are,
        // they cost CPU but no wall time.
        LOG.log(
                System.Logger.Level.INFO,
                "Socios: {0} rows read, {1} loaded, in {2} ms on their own thread, done {3} ms into the read",
                c[0],
                c[1],
                (System.nanoTime() - t0) / 1_000_000,
                elapsed().toMillis());
    }

    /** Rows of one root handed to the partner sink at most at once (a run longer than this is split). */
    private static final int RUN_LIMIT = 1024;

    private static void deliver(PartnerSink sink, CnpjRoot root, List<Partner> run) {
        try {
            sink.add(root, run);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new LoaderException("the partner index rejected the partners of " + root + ": " + e, e);
        }
    }

    /** Reads a ZIP entry through its CRC check, discarding the bytes (on the verifier thread). */
    private void drain(DumpFile f) {
        byte[] buf = new byte[1 << 16];
        try (InputStream in = VerifiedEntryStream.open(f)) {
            int n;
            while (!stopVerifier && (n = in.read(buf)) >= 0) {
                verifiedBytes.addAndGet(n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f.zipName(), e);
        }
    }

    private Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** Stops the read as soon as the verifier thread found a damaged ZIP. */
    private void verifierFailed() {
        Throwable t = verifyFailure.get();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t != null) {
            throw new LoaderException("checking the Socios ZIPs failed: " + t, t);
        }
    }

    private void report(boolean force) {
        verifierFailed();
        long now = System.nanoTime();
        if (!force && now < nextReport) {
            return;
        }
        nextReport = now + options.progressInterval().toNanos();
        options.progress()
                .accept(new Progress(phase, bytesDone + verifiedBytes.get(), bytesTotal, delivered.get(), elapsed()));
    }
}
