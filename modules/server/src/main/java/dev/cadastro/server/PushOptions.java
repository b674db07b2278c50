package dev.cadastro.server;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushWorkers;
import dev.cadastro.providers.JdkWebhookSender;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The push of calls to the integrations' endpoints (issue 19) on this server: whether its workers
 * run, where destinations may point, how many attempts run at once, the receivers' timeout, and the
 * recording link each body carries.
 *
 * @param enabled whether this server runs push workers (any number of servers may)
 * @param allowHttp accept plain-http destinations ({@code --push-allow-http})
 * @param allowPrivate accept private, link-local and loopback addresses ({@code --push-allow-private})
 * @param exempt destinations ({@code host:port}, exactly) that skip the scheme and address checks:
 *     the demo's own receiver on loopback and plain http, and nothing else
 * @param recordingUrl the {@code url_gravacao} of a call in the body (the permanent signed link)
 */
public record PushOptions(
        boolean enabled,
        boolean allowHttp,
        boolean allowPrivate,
        Set<String> exempt,
        PushWorkers.Options workers,
        Duration timeout,
        Function<CallRecord, String> recordingUrl) {
    public PushOptions {
        exempt = Set.copyOf(exempt);
        Objects.requireNonNull(workers, "workers");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(recordingUrl, "recordingUrl");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("push timeout " + timeout + " must be positive");
        }
        // The lease outlasts two attempts' deadlines, a connection's set-up and the time to record the
        // outcome; one set shorter (or a timeout raised past it) is raised to that.
        Duration least = PushWorkers.minimumLease(timeout).plus(connectTimeout(timeout));
        if (workers.lease().compareTo(least) < 0) {
            workers = workers.withLease(least);
        }
    }

    /** The connect timeout for a request timeout: the timeout itself, at most 5 s. */
    public static Duration connectTimeout(Duration timeout) {
        return MAX_CONNECT_TIMEOUT.compareTo(timeout) < 0 ? MAX_CONNECT_TIMEOUT : timeout;
    }

    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Workers on, https and public addresses only, the default concurrency and the 10 s timeout; the
     * recording link is the call's recording key until the call-records service's link signer is wired
     * with {@link #withRecordingUrl}.
     */
    public static PushOptions defaults() {
        return new PushOptions(
                true,
                false,
                false,
                Set.of(),
                PushWorkers.Options.defaults(),
                PushDelivery.DEFAULT_TIMEOUT,
                CallRecord::recordingKey);
    }

    /** No push workers on this server (deliveries wait for a server that runs them). */
    public PushOptions disabled() {
        return new PushOptions(false, allowHttp, allowPrivate, exempt, workers, timeout, recordingUrl);
    }

    public PushOptions withPolicy(boolean allowHttp, boolean allowPrivate) {
        return new PushOptions(enabled, allowHttp, allowPrivate, exempt, workers, timeout, recordingUrl);
    }

    /**
     * Exempts one destination, by its exact host and port, from the scheme and address checks: for
     * the demo's receiver, which is plain http on loopback, without opening either to every
     * destination.
     */
    public PushOptions withExemption(URI destination) {
        Set<String> more = new HashSet<>(exempt);
        more.add(DestinationPolicy.hostAndPort(destination));
        return new PushOptions(enabled, allowHttp, allowPrivate, more, workers, timeout, recordingUrl);
    }

    public PushOptions withWorkers(PushWorkers.Options workers) {
        return new PushOptions(enabled, allowHttp, allowPrivate, exempt, workers, timeout, recordingUrl);
    }

    public PushOptions withTimeout(Duration timeout) {
        return new PushOptions(enabled, allowHttp, allowPrivate, exempt, workers, timeout, recordingUrl);
    }

    public PushOptions withRecordingUrl(Function<CallRecord, String> recordingUrl) {
        return new PushOptions(enabled, allowHttp, allowPrivate, exempt, workers, timeout, recordingUrl);
    }

    /** The address checks these options ask for, on the system resolver. */
    public DestinationPolicy policy() {
        return DestinationPolicy.builder()
                .allowHttp(allowHttp)
                .allowPrivate(allowPrivate)
                .exempt(exempt)
                .resolver(JdkWebhookSender.RESOLVER)
                .build();
    }
}
