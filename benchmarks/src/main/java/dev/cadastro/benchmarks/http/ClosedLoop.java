package dev.cadastro.benchmarks.http;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Clients in a closed loop for a number of seconds, each on a virtual thread of its own with its own
 * connection: a client sends its next request when the previous one answered. A request's time is taken
 * around {@link Client#send} alone: choosing the request before and reading the answer after are not
 * counted.
 */
final class ClosedLoop {
    private ClosedLoop() {}

    /** One client of the loop; its state is its own thread's. */
    interface Client {
        /** Chooses the next request, before its time starts. */
        void next();

        /** Sends the request chosen and reads its answer: the HTTP status (an IOException counts as -1). */
        int send() throws IOException, InterruptedException;

        /** After the request's time was taken: whether its answer, of this status, is an error. */
        boolean failed(int status);

        /** Closes the client's connection. */
        void close();
    }

    /**
     * @param sorted every request's time in microseconds, sorted
     * @param errors how many requests were errors
     * @param statuses how many answers had each status (-1: the connection failed)
     */
    record Result(long[] sorted, long errors, Map<Integer, LongAdder> statuses) {}

    /** Runs {@code connections} clients, client {@code i} made by {@code clients.apply(i)}, for {@code seconds}. */
    static Result run(int connections, int seconds, IntFunction<Client> clients) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        Latencies[] latencies = new Latencies[connections];
        LongAdder errors = new LongAdder();
        Map<Integer, LongAdder> statuses = new ConcurrentSkipListMap<>();
        CountDownLatch done = new CountDownLatch(connections);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < connections; t++) {
                int id = t;
                threads.submit(() -> {
                    Latencies lat = new Latencies();
                    Client client = clients.apply(id);
                    try {
                        while (System.nanoTime() < end) {
                            client.next();
                            long t0 = System.nanoTime();
                            int status;
                            try {
                                status = client.send();
                            } catch (IOException e) {
                                status = -1;
                            }
                            long micros = (System.nanoTime() - t0) / 1000;
                            statuses.computeIfAbsent(status, k -> new LongAdder())
                                    .increment();
                            if (client.failed(status)) {
                                errors.increment();
                            }
                            lat.add(micros);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        client.close();
                        latencies[id] = lat;
                        done.countDown();
                    }
                    return null;
                });
            }
            done.await();
        }
        return new Result(Latencies.sorted(latencies), errors.sum(), statuses);
    }
}
