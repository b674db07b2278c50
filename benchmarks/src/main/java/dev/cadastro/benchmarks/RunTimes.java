package dev.cadastro.benchmarks;

import java.io.PrintStream;
import java.util.Arrays;

/** The timings of a run repeated a few times: their median, and a one-line report of them. */
public final class RunTimes {
    private RunTimes() {}

    /** Prints {@code what: median M ms, min A, max B (n=N)}. */
    public static void report(PrintStream out, String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        out.printf(
                "%s: median %.1f ms, min %.1f, max %.1f (n=%d)%n",
                what, median(nanos) / 1e6, sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6, nanos.length);
    }

    /** The median (the upper one of an even count). */
    public static long median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
