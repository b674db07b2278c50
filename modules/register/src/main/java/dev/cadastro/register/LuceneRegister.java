package dev.cadastro.register;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.register.internal.ChangeSet;
import dev.cadastro.register.internal.Durable;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.Generations;
import dev.cadastro.register.internal.OutdatedFormatException;
import dev.cadastro.register.internal.QueryEngine;
import dev.cadastro.register.internal.Rollup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The core's {@link RegisterSearch} port over the published register index under a root directory.
 *
 * <p>Follows {@code root/CURRENT}: {@link #refresh()} (called every {@link SearchOptions#refreshInterval()}
 * by a daemon thread, or by the caller) opens a newly published generation and swaps it in. Each query
 * holds a reference to the generation it started on, so a swap never fails an in-flight query; the old
 * generation's reader closes when its last query ends, and its directory is then deleted unless {@code
 * CURRENT} names it. Thread-safe.
 */
public final class LuceneRegister implements RegisterSearch, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LuceneRegister.class.getName());

    private final Path root;
    private final SearchOptions options;
    private final AtomicReference<GenerationReader> current = new AtomicReference<>();
    private final ScheduledExecutorService refresher;
    private final Object refreshLock = new Object();
    private final List<Runnable> closeActions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private LuceneRegister(Path root, SearchOptions options) {
        this.root = root;
        this.options = options;
        if (options.refreshInterval().isZero()) {
            this.refresher = null;
        } else {
            this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "register-refresh " + root);
                t.setDaemon(true);
                return t;
            });
        }
    }

    /**
     * The metadata of the generation {@code root/CURRENT} names (what it was built from, when, how many
     * documents), read without opening the index; empty when nothing was published under {@code root}.
     *
     * @throws IllegalStateException when the generation was written in an earlier format (a load rebuilds it)
     * @throws UncheckedIOException when {@code CURRENT} or the generation's metadata cannot be read
     */
    public static Optional<PublishedIndex> currentGeneration(Path root) {
        Objects.requireNonNull(root, "root");
        try {
            Optional<Path> dir = Generations.current(root);
            return dir.isEmpty() ? Optional.empty() : Optional.of(Generations.readMeta(dir.get()));
        } catch (OutdatedFormatException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the current generation under " + root, e);
        }
    }

    /** Opens the generation {@code root/CURRENT} names, with {@link SearchOptions#defaults()}. */
    public static LuceneRegister open(Path root) {
        return open(root, SearchOptions.defaults());
    }

    /**
     * Opens the generation {@code root/CURRENT} names.
     *
     * @throws IllegalStateException when nothing was published under {@code root}, or when the generation
     *     was written in an earlier format (a load rebuilds it; the message says so)
     * @throws UncheckedIOException when the generation cannot be read
     */
    public static LuceneRegister open(Path root, SearchOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        LuceneRegister register = new LuceneRegister(root, options);
        try {
            Path dir = Generations.current(root)
                    .orElseThrow(() -> new IllegalStateException(
                            "no register index is published under " + root + " (no CURRENT file): load a dump first"));
            register.current.set(register.openGeneration(dir));
        } catch (OutdatedFormatException e) {
            register.close();
            throw new IllegalStateException(e.getMessage(), e);
        } catch (IOException e) {
            register.close();
            throw new UncheckedIOException("cannot open the register index under " + root, e);
        } catch (RuntimeException e) {
            register.close();
            throw e;
        }
        if (register.refresher != null) {
            long ms = options.refreshInterval().toMillis();
            register.refresher.scheduleWithFixedDelay(register::refreshQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
        return register;
    }

    /**
     * A register over {@code root} that may have no generation yet (a server whose index is still being
     * downloaded): the generation {@code CURRENT} names is opened when there is one; otherwise {@link
     * #published()} throws {@link IllegalStateException} (so readiness reports the index missing) and
     * queries fail with {@code SERVICO_INDISPONIVEL} until {@link #refresh()} finds a {@code CURRENT}.
     *
     * @throws UncheckedIOException when {@code CURRENT} names a generation that cannot be read
     */
    public static LuceneRegister awaiting(Path root, SearchOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        LuceneRegister register = new LuceneRegister(root, options);
        try {
            Optional<Path> dir = Generations.current(root);
            if (dir.isPresent()) {
                register.current.set(register.openGeneration(dir.get()));
            }
        } catch (IOException e) {
            register.close();
            throw new UncheckedIOException("cannot open the register index under " + root, e);
        } catch (RuntimeException e) {
            register.close();
            throw e;
        }
        if (register.refresher != null) {
            long ms = options.refreshInterval().toMillis();
            register.refresher.scheduleWithFixedDelay(register::refreshQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
        return register;
    }

    /**
     * Runs {@code action} when the register is closed, before its generation is released (a follower of an
     * object store stops downloading there). Actions run once, in the order given.
     */
    public void onClose(Runnable action) {
        Objects.requireNonNull(action, "action");
        closeActions.add(action);
    }

    /** The index root this register follows. */
    public Path root() {
        return root;
    }

    /**
     * Checks {@code CURRENT} now and switches when it names another generation.
     *
     * @return true when a newer generation was opened and swapped in
     */
    public boolean refresh() {
        synchronized (refreshLock) {
            ensureOpen();
            try {
                Optional<Path> dir = Generations.current(root);
                GenerationReader old = current.get();
                if (dir.isEmpty() || (old != null && dir.get().equals(old.meta().path()))) {
                    return false;
                }
                GenerationReader fresh = openGeneration(dir.get());
                if (old != null) {
                    warm(fresh, old);
                }
                current.set(fresh);
                if (old != null) {
                    old.release();
                }
                LOG.log(
                        Level.INFO,
                        "register switched to {0} ({1} establishments)",
                        dir.get(),
                        fresh.meta().documents());
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the generation CURRENT names under " + root, e);
            }
        }
    }

    /**
     * The generation queries are answered from now.
     *
     * @throws IllegalStateException when no generation is open (an {@link #awaiting} register before its
     *     first, or a closed one)
     */
    public PublishedIndex published() {
        return reader().meta();
    }

    /** Heap held by cached filter bitsets of the current generation, in bytes. */
    public long cachedBitsetBytes() {
        return reader().cacheBytes();
    }

    /**
     * Heap held by the current generation's precomputed counts, in bytes: 0 when it has none or {@link
     * SearchOptions#rollupCounts()} is off (then they are not read).
     */
    public long precomputedCountBytes() {
        Rollup r = reader().rollup();
        return r == null ? 0 : r.bytes();
    }

    @Override
    public SearchResult search(RegisterQuery query) {
        Objects.requireNonNull(query, "query");
        GenerationReader g = acquire();
        try {
            refuseDebtWithoutData(g, query);
            refuseNamesWithoutWords(g, query);
            return new QueryEngine(g, options).search(query);
        } catch (IOException e) {
            throw failure(e);
        } finally {
            g.release();
        }
    }

    @Override
    public ChangePage changes(ChangeQuery query) {
        Objects.requireNonNull(query, "query");
        GenerationReader g = acquire();
        try {
            refuseDebtWithoutData(g, query.filtros());
            refuseNamesWithoutWords(g, query.filtros());
            refuseMonthWithoutChanges(g, query);
            return new QueryEngine(g, options).changes(query.filtros(), query.tipos());
        } catch (IOException e) {
            throw failure(e);
        } finally {
            g.release();
        }
    }

    @Override
    public long exportChanges(ChangeQuery query, int limit, RecordSink sink) throws IOException {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(sink, "sink");
        GenerationReader g = acquire();
        try {
            refuseDebtWithoutData(g, query.filtros());
            refuseNamesWithoutWords(g, query.filtros());
            refuseMonthWithoutChanges(g, query);
            describe(g, sink);
            return new QueryEngine(g, options).exportChanges(query.filtros(), query.tipos(), limit, sink);
        } finally {
            g.release();
        }
    }

    /** Tells {@code sink} the month of the generation {@code g} an export reads, before its first record. */
    private static void describe(GenerationReader g, RecordSink sink) throws IOException {
        Optional<DataReference> reference = referenceOf(g);
        if (reference.isPresent()) {
            sink.describe(reference.get());
        }
    }

    /** Changes are kept for the current generation's month only: another month, or none kept, is refused. */
    private static void refuseMonthWithoutChanges(GenerationReader g, ChangeQuery query) {
        ChangeSet changes = g.changes();
        Optional<YearMonth> held = changes == null ? Optional.empty() : changes.month();
        boolean refused = changes == null
                || query.referencia().isPresent() && !query.referencia().equals(held);
        if (refused) {
            throw InvalidParameterException.of(
                    "referencia",
                    "no-changes",
                    Message.REGISTER_NO_CHANGES.with(
                            query.referencia().map(YearMonth::toString).orElse("-"),
                            changes == null
                                    ? "-"
                                    : held.map(YearMonth::toString).orElse("-")));
        }
    }

    @Override
    public CountResult count(RegisterQuery query) {
        Objects.requireNonNull(query, "query");
        GenerationReader g = acquire();
        try {
            refuseDebtWithoutData(g, query);
            refuseNamesWithoutWords(g, query);
            return new QueryEngine(g, options).count(query);
        } catch (IOException e) {
            throw failure(e);
        } finally {
            g.release();
        }
    }

    @Override
    public long export(RegisterQuery query, int limit, RecordSink sink) throws IOException {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(sink, "sink");
        if (limit < 0) {
            throw new IllegalArgumentException("export limit " + limit + " must not be negative");
        }
        // One generation from the first record to the last, even if another is published meanwhile.
        GenerationReader g = acquire();
        try {
            refuseDebtWithoutData(g, query);
            refuseNamesWithoutWords(g, query);
            describe(g, sink);
            return new QueryEngine(g, options).export(query, limit, sink);
        } finally {
            g.release();
        }
    }

    @Override
    public List<Partner> partners(CnpjRoot root) {
        return partnersReferenced(root).partners();
    }

    /** The partners, and the reference month, from the one generation acquired for the call. */
    @Override
    public PartnersOf partnersReferenced(CnpjRoot root) {
        Objects.requireNonNull(root, "root");
        // One acquired generation per call, as a lookup: the partners answered are all of one generation.
        // A lookup and a partners call made one after the other may straddle a publish.
        return read(g -> new PartnersOf(g.partners(root), referenceOf(g)));
    }

    @Override
    public Optional<Empresa> lookup(Cnpj cnpj) {
        Objects.requireNonNull(cnpj, "cnpj");
        return read(g -> g.lookup(cnpj));
    }

    /** Every lookup from the one generation acquired for the call. */
    @Override
    public List<Optional<Empresa>> lookupAll(List<Cnpj> cnpjs) {
        return lookupAllReferenced(cnpjs).found();
    }

    /** Every lookup, and the reference month, from the one generation acquired for the call. */
    @Override
    public Lookups lookupAllReferenced(List<Cnpj> cnpjs) {
        Objects.requireNonNull(cnpjs, "cnpjs");
        return read(g -> {
            List<Optional<Empresa>> out = new ArrayList<>(cnpjs.size());
            for (Cnpj c : cnpjs) {
                out.add(g.lookup(c));
            }
            return new Lookups(out, referenceOf(g));
        });
    }

    @Override
    public Optional<DataReference> reference() {
        GenerationReader g = current.get();
        return g == null ? Optional.empty() : referenceOf(g);
    }

    /** A read of one acquired generation that may fail with an {@link IOException}. */
    @FunctionalInterface
    private interface GenerationRead<T> {
        T from(GenerationReader g) throws IOException;
    }

    /**
     * {@code read} from the generation acquired for the call, released after; an I/O failure as {@link
     * #failure}.
     */
    private <T> T read(GenerationRead<T> read) {
        GenerationReader g = acquire();
        try {
            return read.from(g);
        } catch (IOException e) {
            throw failure(e);
        } finally {
            g.release();
        }
    }

    private static Optional<DataReference> referenceOf(GenerationReader g) {
        PublishedIndex meta = g.meta();
        return meta.referenceMonth().map(m -> new DataReference(m, meta.publishedAt()));
    }

    /** Stops refreshing and releases the current generation (closed once its last query ends). */
    @Override
    public void close() {
        // Before the lock: a close action may wait for a thread that is inside refresh().
        for (Runnable action : closeActions) {
            closeActions.remove(action);
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a close action of the register of " + root + " failed", e);
            }
        }
        synchronized (refreshLock) {
            if (closed) {
                return;
            }
            closed = true;
            if (refresher != null) {
                refresher.shutdownNow();
            }
            GenerationReader g = current.getAndSet(null);
            if (g != null) {
                g.release();
            }
        }
    }

    private GenerationReader reader() {
        GenerationReader g = current.get();
        if (g == null) {
            throw new IllegalStateException(
                    closed
                            ? "the register of " + root + " is closed"
                            : "no generation of the register under " + root + " is open yet");
        }
        return g;
    }

    private GenerationReader acquire() {
        for (; ; ) {
            GenerationReader g = current.get();
            if (g == null) {
                if (closed) {
                    throw new IllegalStateException("the register of " + root + " is closed");
                }
                // An awaiting register before its first generation: the server is not ready yet.
                throw new CadastroException(ErrorCode.SERVICO_INDISPONIVEL, Message.REGISTER_NOT_OPEN.with());
            }
            if (g.tryAcquire()) {
                return g;
            }
            Thread.onSpinWait();
        }
    }

    /** The old generation still answers meanwhile; a warm-up that fails only leaves the new one cold. */
    private static void warm(GenerationReader fresh, GenerationReader old) {
        long t0 = System.nanoTime();
        try {
            int built = fresh.warmFrom(old);
            LOG.log(
                    Level.INFO,
                    "warmed {0}: {1} filter bitsets built in {2} ms before the swap",
                    fresh.meta().path(),
                    built,
                    (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "warming " + fresh.meta().path() + " failed; it is swapped in cold", e);
        }
    }

    private GenerationReader openGeneration(Path dir) throws IOException {
        long cacheBytes = (long) options.bitsetCacheMb() << 20;
        return GenerationReader.open(dir, cacheBytes, options.rollupCounts(), () -> deleteIfObsolete(dir));
    }

    /** After its last reader closed: a generation CURRENT does not name is deleted. */
    private void deleteIfObsolete(Path dir) {
        try {
            Optional<Path> cur = Generations.current(root);
            if (cur.isPresent() && !cur.get().equals(dir)) {
                Durable.deleteTree(dir);
                LOG.log(Level.INFO, "deleted obsolete generation {0}", dir);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot delete obsolete generation " + dir, e);
        }
    }

    private void refreshQuietly() {
        try {
            if (!closed) {
                refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "register refresh failed; still answering from "
                            + Optional.ofNullable(current.get())
                                    .map(g -> g.meta().path().toString())
                                    .orElse("no generation"),
                    e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the register of " + root + " is closed");
        }
    }

    /**
     * A generation published without debt data has every {@code divida} flag false: a count with {@code
     * divida} would be a wrong number stated as exact, so the filter is refused, naming it.
     */
    private static void refuseDebtWithoutData(GenerationReader g, RegisterQuery query) {
        if (query.divida().isPresent() && !g.meta().debtData()) {
            throw InvalidParameterException.of(
                    RegisterQuery.DIVIDA, "no-debt-data", Message.REGISTER_NO_DEBT_DATA.with());
        }
    }

    /** A generation built before name search holds no name words: a name search there is refused, not answered 0. */
    private static void refuseNamesWithoutWords(GenerationReader g, RegisterQuery query) {
        if (query.buscaTextual().isPresent() && !g.hasNameWords()) {
            throw InvalidParameterException.of(
                    RegisterQuery.BUSCA_TEXTUAL, "no-name-index", Message.REGISTER_NO_NAME_INDEX.with());
        }
    }

    private static CadastroException failure(IOException e) {
        return new CadastroException(ErrorCode.ERRO_INTERNO, Message.REGISTER_UNREADABLE.with(), null, e);
    }
}
