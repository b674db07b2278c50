package dev.cadastro.server;

import java.time.Duration;
import java.util.List;

/**
 * Mailing exports: how many run at once on this server, how long their files are kept, and the
 * lease a running export holds (renewed every third of it; a server that dies frees it after this).
 */
public record MailingOptions(int workers, Duration retention, Duration lease, Duration poll, Duration grace) {
    public MailingOptions {
        if (workers < 1) {
            throw new IllegalArgumentException("mailing workers " + workers + " must be at least 1");
        }
        for (Duration d : List.of(retention, lease, poll, grace)) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("mailing durations must be positive: " + d);
            }
        }
    }

    /** Two exports at once, files kept 7 days, a 30-second lease, polled every second, 10 s to finish at a stop. */
    public static MailingOptions defaults() {
        return new MailingOptions(
                2, Duration.ofDays(7), Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(10));
    }

    public MailingOptions withRetention(Duration retention) {
        return new MailingOptions(workers, retention, lease, poll, grace);
    }

    public MailingOptions withWorkers(int workers) {
        return new MailingOptions(workers, retention, lease, poll, grace);
    }
}
