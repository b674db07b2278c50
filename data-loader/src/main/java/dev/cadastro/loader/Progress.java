package dev.cadastro.loader;

import java.time.Duration;

/**
 * Where a load stands, reported periodically.
 *
 * @param phase what is being read: {@code Empresas}, {@code Estabelecimentos}, ...
 * @param bytesDone uncompressed bytes read so far, over all files
 * @param bytesTotal uncompressed bytes of all files to read
 * @param establishments establishments handed to the index so far
 * @param elapsed time since the load started
 */
public record Progress(String phase, long bytesDone, long bytesTotal, long establishments, Duration elapsed) {
    /** Share of the work done, 0 to 1. */
    public double fraction() {
        return bytesTotal <= 0 ? 0 : Math.min(1.0, (double) bytesDone / bytesTotal);
    }

    /** Estimated time left, from the byte rate so far; null before anything was read. */
    public Duration eta() {
        if (bytesDone <= 0) {
            return null;
        }
        double left = elapsed.toNanos() * (double) (bytesTotal - bytesDone) / bytesDone;
        return Duration.ofNanos((long) Math.max(0, left));
    }

    /** Establishments per second so far. */
    public double establishmentsPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s <= 0 ? 0 : establishments / s;
    }
}
