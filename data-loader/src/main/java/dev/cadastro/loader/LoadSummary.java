package dev.cadastro.loader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a load did: rows read, loaded and rejected (by reason) per file family, what was corrected in
 * kept rows, and how long it took.
 *
 * @param dateCode the dump's extraction date code ({@code D60808})
 * @param families counts per family ({@code Empresas}, {@code Estabelecimentos}, ...), in load order
 * @param notes corrections and observations on kept rows
 * @param establishments establishments handed to the index
 * @param elapsed wall time of the whole load (the reader's alone until the server's {@code DumpLoader} adds the publication)
 * @param rejectsFile where rejected rows were written
 * @param published what the register published (its own description), or null when nothing was
 * @param debt the PGFN debt files read, or null when none were: the generation then has no debt data
 */
public record LoadSummary(
        String dateCode,
        Map<String, FamilyCount> families,
        Map<Note, Long> notes,
        long establishments,
        Duration elapsed,
        Path rejectsFile,
        String published,
        DebtFiles debt) {

    public LoadSummary {
        families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
        notes = Collections.unmodifiableMap(new EnumMap<>(notes.isEmpty() ? new EnumMap<>(Note.class) : notes));
    }

    /**
     * The PGFN debt files a load read.
     *
     * @param folder where they were
     * @param files the folder's files read (ZIPs and CSVs)
     * @param csvs the CSV files read, inside the ZIPs or beside them
     * @param references the reference months ({@code 2026-06}) their names carry; empty when none does
     */
    public record DebtFiles(Path folder, List<String> files, int csvs, List<String> references) {
        public DebtFiles {
            files = List.copyOf(files);
            references = List.copyOf(references);
        }

        /** The summary's line, without its indent. */
        public String describe() {
            String reference = references.isEmpty()
                    ? "reference date not in the file names"
                    : (references.size() == 1 ? "reference date " : "reference dates ") + String.join(", ", references);
            return String.format(
                    Locale.ROOT,
                    "PGFN debt: %s (%d CSV file%s) from %s, %s",
                    String.join(", ", files),
                    csvs,
                    csvs == 1 ? "" : "s",
                    folder,
                    reference);
        }
    }

    /** The summary's line when no debt file was read. */
    public static final String NO_DEBT = "PGFN debt: no PGFN debt data (no --debt and no debt/ folder in the dump);"
            + " searches, counts and exports with divida are refused";

    /**
     * Counts of one family.
     *
     * @param read rows read (empty lines not counted)
     * @param loaded rows kept
     * @param rejected rows rejected, by reason
     */
    public record FamilyCount(long read, long loaded, Map<RejectReason, Long> rejected) {
        public FamilyCount {
            rejected = Collections.unmodifiableMap(
                    rejected.isEmpty() ? new EnumMap<>(RejectReason.class) : new EnumMap<>(rejected));
        }

        public long rejectedTotal() {
            return rejected.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Rows rejected over all families, by reason. */
    public Map<RejectReason, Long> rejected() {
        Map<RejectReason, Long> total = new EnumMap<>(RejectReason.class);
        for (FamilyCount c : families.values()) {
            c.rejected().forEach((r, n) -> total.merge(r, n, Long::sum));
        }
        return total;
    }

    public long rejectedTotal() {
        return rejected().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Establishments per second over the whole load. */
    public double establishmentsPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s <= 0 ? 0 : establishments / s;
    }

    /** The summary as the command line prints it. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "dump %s: %,d establishments loaded in %s (%,.0f establishments/s), %,d rows rejected%n",
                dateCode,
                establishments,
                format(elapsed),
                establishmentsPerSecond(),
                rejectedTotal()));
        sb.append(String.format(
                Locale.ROOT, "  %-18s %14s %14s %12s  %s%n", "family", "read", "loaded", "rejected", "reasons"));
        families.forEach((family, c) -> {
            StringBuilder reasons = new StringBuilder();
            c.rejected()
                    .forEach((r, n) -> reasons.append(reasons.isEmpty() ? "" : ", ")
                            .append(r.code())
                            .append(' ')
                            .append(n));
            sb.append(String.format(
                    Locale.ROOT,
                    "  %-18s %,14d %,14d %,12d  %s%n",
                    family,
                    c.read(),
                    c.loaded(),
                    c.rejectedTotal(),
                    reasons));
        });
        if (!notes.isEmpty()) {
            StringBuilder n = new StringBuilder();
            notes.forEach((k, v) -> {
                if (v > 0) {
                    n.append(n.isEmpty() ? "" : ", ")
                            .append(k.code())
                            .append(' ')
                            .append(String.format(Locale.ROOT, "%,d", v));
                }
            });
            if (!n.isEmpty()) {
                sb.append("  kept with corrections: ").append(n).append('\n');
            }
        }
        sb.append("  ").append(debt == null ? NO_DEBT : debt.describe()).append('\n');
        sb.append("  rejects: ").append(rejectsFile).append('\n');
        if (published != null) {
            sb.append("  published: ").append(published).append('\n');
        }
        return sb.toString();
    }

    /** A duration as the summary prints it: {@code 10m42s}, or seconds with a decimal below a minute. */
    public static String format(Duration d) {
        long s = d.toSeconds();
        return s >= 60
                ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60)
                : String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }
}
