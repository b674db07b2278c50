package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The estimator's sampling windows, numbered without materializing them, are exactly the windows of
 * the plain enumeration: per segment, per range, cut every {@code width} documents from the range's
 * start, in that order; ranges may be empty or end at the largest document number.
 */
class WindowsProperties {

    @Property(tries = 300)
    void numberedWindowsEqualThePlainEnumeration(
            @ForAll("segments") int[][][] ranges, @ForAll @IntRange(min = 1, max = 5_000) int width) {
        List<long[]> expected = new ArrayList<>();
        for (int li = 0; li < ranges.length; li++) {
            for (int[] r : ranges[li]) {
                for (long from = r[0]; from < r[1]; from += width) {
                    expected.add(new long[] {li, from, Math.min(r[1], from + width)});
                }
            }
        }
        QueryEngine.Windows windows = new QueryEngine.Windows(ranges, width);
        assertEquals(expected.size(), windows.size());
        for (int i = 0; i < expected.size(); i++) {
            int k = windows.range(i);
            long[] e = expected.get(i);
            int window = i;
            assertEquals(e[0], windows.leaf[k], () -> "segment of window " + window);
            assertEquals(e[1], windows.start(k, window), () -> "start of window " + window);
            assertEquals(e[2], windows.end(k, window), () -> "end of window " + window);
        }
    }

    /**
     * Every window of an exact pass, over every segment's ranges (starting anywhere in a word, wider or
     * narrower than the 65,536-document cap, narrow segments before wide ones), fits the window
     * bitsets sized by {@link QueryEngine#widestWindow} (from its first document rounded down to 64 to
     * its end, at most that many bits), and that size is no larger than the widest window needs.
     */
    @Property(tries = 300)
    void everyExactWindowFitsTheWindowBitsets(@ForAll("wideSegments") int[][][] ranges) {
        int widest = QueryEngine.widestWindow(ranges);
        assertTrue(widest <= QueryEngine.EXACT_WINDOW, () -> widest + " is above the cap");
        long widestSeen = 0;
        for (int[][] segment : ranges) {
            for (int[] r : segment) {
                for (int from = r[0]; from < r[1]; ) {
                    int to = QueryEngine.exactWindowEnd(from, r[1]);
                    long span = (long) to - (from & ~63);
                    int start = from;
                    assertTrue(span <= widest, () -> "window from " + start + " spans " + span + " > " + widest);
                    widestSeen = Math.max(widestSeen, span);
                    from = to;
                }
            }
        }
        // No wider than needed: an empty range starting mid-word may count up to 63 documents.
        long needed = Math.max(widestSeen, 63);
        assertTrue(widest <= needed, () -> widest + " for windows of at most " + needed + " documents");
    }

    /** Like {@link #segments}, one to four segments with ranges up to 300,000 documents wide. */
    @Provide
    Arbitrary<int[][][]> wideSegments() {
        return segments(4, 300_000, 4);
    }

    /** One to five segments of up to six ranges each, ascending, some empty, some at the top of int. */
    @Provide
    Arbitrary<int[][][]> segments() {
        return segments(6, 20_000, 5);
    }

    /** Up to {@code maxSegments} segments of up to {@code maxRanges} ranges with bounds up to {@code maxPoint}. */
    private static Arbitrary<int[][][]> segments(int maxRanges, int maxPoint, int maxSegments) {
        Arbitrary<int[][]> segment = Arbitraries.integers()
                .between(0, maxRanges)
                .flatMap(n -> Arbitraries.integers()
                        .between(0, maxPoint)
                        .list()
                        .ofSize(2 * n)
                        .flatMap(points -> Arbitraries.of(false, true).map(top -> ranges(points, top))));
        return segment.array(int[][][].class).ofMinSize(1).ofMaxSize(maxSegments);
    }

    private static int[][] ranges(List<Integer> points, boolean top) {
        List<Integer> sorted = new ArrayList<>(points);
        sorted.sort(null);
        int[][] out = new int[sorted.size() / 2][];
        int shift = top && !sorted.isEmpty() ? Integer.MAX_VALUE - sorted.get(sorted.size() - 1) : 0;
        for (int i = 0; i < out.length; i++) {
            out[i] = new int[] {sorted.get(2 * i) + shift, sorted.get(2 * i + 1) + shift};
        }
        return out;
    }
}
