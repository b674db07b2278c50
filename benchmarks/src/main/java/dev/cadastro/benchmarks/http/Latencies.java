package dev.cadastro.benchmarks.http;

import java.util.Arrays;

/**
 * One connection's request latencies in a closed-loop run, in microseconds, kept by that connection's
 * thread alone and merged with the others' when the run is over.
 */
final class Latencies {
    private long[] micros = new long[1 << 16];
    private int count;

    void add(long latencyMicros) {
        if (count == micros.length) {
            micros = Arrays.copyOf(micros, count * 2);
        }
        micros[count++] = latencyMicros;
    }

    /** Every connection's latencies in one sorted array (a connection that never ran is null). */
    static long[] sorted(Latencies[] connections) {
        int total = 0;
        for (Latencies l : connections) {
            total += l == null ? 0 : l.count;
        }
        long[] all = new long[total];
        int at = 0;
        for (Latencies l : connections) {
            if (l != null) {
                System.arraycopy(l.micros, 0, all, at, l.count);
                at += l.count;
            }
        }
        Arrays.sort(all);
        return all;
    }

    /** The {@code p} quantile of sorted latencies (nearest rank), 0 for none. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
