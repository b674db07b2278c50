package dev.cadastro.core.calls;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link CallIngest#runOnce} for each source every {@code interval} (two minutes by default, the
 * contract's refresh), on one daemon thread, the first tick at once. A failed tick is logged and the next
 * tick simply tries again from the same checkpoint. Any number of servers may run a loop on one database:
 * the checkpoints' leases let one of them ingest a source at a time.
 */
public final class CallIngestLoop implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CallIngestLoop.class.getName());

    /** The contract's refresh interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(2);

    private final CallIngest ingest;
    private final List<CallSource> sources;
    private final Clock clock;
    private final ScheduledExecutorService executor;

    private CallIngestLoop(CallIngest ingest, List<CallSource> sources, Clock clock) {
        this.ingest = Objects.requireNonNull(ingest, "ingest");
        this.sources = List.copyOf(sources);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("call-ingest").factory());
    }

    /** Starts ticking at once, then every {@code interval} after the end of the previous tick. */
    public static CallIngestLoop start(CallIngest ingest, List<CallSource> sources, Clock clock, Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("interval " + interval + " must be at least 1 second");
        }
        CallIngestLoop loop = new CallIngestLoop(ingest, sources, clock);
        loop.executor.scheduleWithFixedDelay(loop::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return loop;
    }

    /** Runs one tick now, on the loop's thread (after any tick in progress), and waits for it. */
    public void tickNow() throws InterruptedException {
        try {
            executor.submit(this::tick).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a tick failed outside its own handling", e.getCause());
        }
    }

    private void tick() {
        for (CallSource source : sources) {
            try {
                Optional<CallStore.IngestResult> r = ingest.runOnce(source, clock.instant());
                if (r.isPresent()) {
                    LOG.log(System.Logger.Level.DEBUG, "source {0}: {1}", source.name(), r.get());
                } else {
                    LOG.log(System.Logger.Level.DEBUG, "source {0}: another server is ingesting it", source.name());
                }
            } catch (Exception e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "source " + source.name() + ": ingest failed; the next tick retries from the same checkpoint",
                        e);
            }
        }
    }

    /** Stops ticking; a tick in progress may finish for up to 30 seconds. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
