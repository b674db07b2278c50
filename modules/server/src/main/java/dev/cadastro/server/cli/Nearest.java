package dev.cadastro.server.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The known words closest to a mistyped one, by optimal-string-alignment distance (edits, with a swap
 * of two neighbours as one edit), for the "did you mean" of an unknown command or option.
 */
final class Nearest {
    private Nearest() {}

    /** At most three candidates within a third of the word's length (at least two edits), nearest first. */
    static List<String> to(String word, Collection<String> candidates) {
        int limit = Math.max(2, word.length() / 3);
        record Scored(String name, int distance) {}
        List<Scored> scored = new ArrayList<>();
        for (String c : candidates) {
            int d = distance(word, c);
            if (d <= limit) {
                scored.add(new Scored(c, d));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name));
        return scored.stream().limit(3).map(Scored::name).toList();
    }

    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
