package dev.cadastro.benchmarks.register;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Draws the register benchmark's latencies as an SVG bar chart (one group of bars per query, one bar
 * per engine, logarithmic milliseconds), for a run's section in {@code benchmarks/history/} (the plots
 * are shown in {@code benchmarks/RESULTS.md}). Input: CSV lines {@code
 * query,engine,metric,milliseconds}, as {@link RegisterLatency} writes them with {@code
 * -Dlatency.csv=FILE} (the peers' CSV in {@code benchmarks/results/} was taken from {@link
 * PeerComparison}'s count table); one chart per metric. No plotting library: SVG is text.
 *
 * <pre>
 * java [-Dgoal.ms=5] -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.register.LatencyPlot \
 *     METRIC OUT.svg TITLE CSV...
 * </pre>
 */
public final class LatencyPlot {
    private static final String[] COLOURS = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"};

    private LatencyPlot() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: LatencyPlot METRIC OUT.svg TITLE CSV...");
            System.exit(2);
        }
        String metric = args[0];
        Map<String, Map<String, Double>> byQuery = new LinkedHashMap<>();
        Set<String> engines = new LinkedHashSet<>();
        for (int i = 3; i < args.length; i++) {
            for (String line : Files.readAllLines(Path.of(args[i]), StandardCharsets.UTF_8)) {
                String[] f = line.split(",");
                if (f.length != 4 || !f[2].equals(metric)) {
                    continue;
                }
                byQuery.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], Double.parseDouble(f[3]));
                engines.add(f[1]);
            }
        }
        if (byQuery.isEmpty()) {
            throw new IllegalArgumentException("no line with metric " + metric + " in the CSV files");
        }
        Files.writeString(Path.of(args[1]), svg(args[2], metric, byQuery, new ArrayList<>(engines)));
    }

    static String svg(String title, String metric, Map<String, Map<String, Double>> byQuery, List<String> engines) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (Map<String, Double> m : byQuery.values()) {
            for (double v : m.values()) {
                min = Math.min(min, Math.max(v, 1e-3));
                max = Math.max(max, v);
            }
        }
        int lo = (int) Math.floor(Math.log10(min) - 0.3); // a bar at the smallest value stays visible
        int hi = (int) Math.ceil(Math.log10(max));
        if (hi == lo) {
            hi++;
        }
        int left = 70;
        int top = 50;
        int plotH = 320;
        int bar = 9;
        int group = engines.size() * bar + 14;
        int plotW = byQuery.size() * group;
        int width = Math.max(left + plotW + 20, 720);
        int height = top + plotH + 50 + 18 * engines.size();
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                width,
                height));
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text><text x=\"%d\" y=\"37\">%s</text>%n",
                left,
                escape(title),
                left,
                escape(metric + ", milliseconds, logarithmic scale")));
        for (int e = lo; e <= hi; e++) {
            double y = top + plotH - (double) (e - lo) / (hi - lo) * plotH;
            s.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    left,
                    left + plotW,
                    y,
                    y,
                    left - 5,
                    y + 4,
                    label(e)));
        }
        int q = 0;
        for (Map.Entry<String, Map<String, Double>> entry : byQuery.entrySet()) {
            int x0 = left + q * group + 7;
            for (int e = 0; e < engines.size(); e++) {
                Double v = entry.getValue().get(engines.get(e));
                if (v == null) {
                    continue;
                }
                double logv = Math.log10(Math.max(v, Math.pow(10, lo)));
                double h = (logv - lo) / (hi - lo) * plotH;
                s.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s %s: %s ms"
                                + "</title></rect>%n",
                        x0 + e * bar,
                        top + plotH - h,
                        bar - 1,
                        h,
                        COLOURS[e % COLOURS.length],
                        escape(entry.getKey()),
                        escape(engines.get(e)),
                        v));
            }
            String name = entry.getKey().split(" ")[0];
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x0 + engines.size() * bar / 2,
                    top + plotH + 15,
                    escape(name)));
            q++;
        }
        String goal = System.getProperty("goal.ms");
        if (goal != null) {
            double y = top + plotH - (Math.log10(Double.parseDouble(goal)) - lo) / (hi - lo) * plotH;
            s.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"red\" stroke-dasharray=\"6,3\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" fill=\"red\">goal %s ms</text>%n",
                    left,
                    left + plotW,
                    y,
                    y,
                    left + plotW - 70,
                    y - 4,
                    escape(goal)));
        }
        for (int e = 0; e < engines.size(); e++) {
            int y = top + plotH + 40 + e * 18;
            int x = left;
            s.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    x,
                    y - 9,
                    COLOURS[e % COLOURS.length],
                    x + 14,
                    y,
                    escape(engines.get(e))));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static String label(int exponent) {
        return exponent >= 0 ? "1" + "0".repeat(exponent) : "0." + "0".repeat(-exponent - 1) + "1";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
