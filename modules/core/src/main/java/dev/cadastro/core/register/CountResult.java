package dev.cadastro.core.register;

/**
 * The number of establishments that match a query. Exact counts have {@code low == total == high}.
 * An estimate ({@code aproximado}) carries its 95% confidence interval {@code [low, high]}.
 */
public record CountResult(long total, boolean aproximado, long low, long high) {

    public CountResult {
        if (total < 0 || low > total || high < total) {
            throw new IllegalArgumentException("inconsistent count: " + low + " <= " + total + " <= " + high);
        }
        if (!aproximado && (low != total || high != total)) {
            throw new IllegalArgumentException("an exact count has no interval: " + low + ".." + high);
        }
    }

    public static CountResult exact(long total) {
        return new CountResult(total, false, total, total);
    }

    public static CountResult estimate(long total, long low, long high) {
        return new CountResult(total, true, low, high);
    }
}
