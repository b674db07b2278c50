package dev.cadastro.providers;

import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.WebhookSender;
import dev.cadastro.core.calls.push.WebhookSender.Stamp;
import dev.cadastro.core.internal.Texts;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends push deliveries with the JDK's {@link HttpClient}: HTTP/1.1, redirects never followed (a 3xx
 * is a failed attempt), a connect timeout, and one deadline over the whole exchange: connecting,
 * writing, the status and headers, and at most {@link #BODY_LIMIT} bytes of the response body, which
 * is dropped (never logged or stored). The JDK's own request timeout stops at the headers, so a
 * receiver that answered and then trickles an endless body would otherwise hold the attempt forever;
 * at the deadline the exchange is cancelled. A status that arrived in time stands even when its body
 * did not finish. A {@code Retry-After} in seconds or as an HTTP date is parsed against the injected
 * clock.
 */
public final class JdkWebhookSender implements WebhookSender {
    /** The most of a response body read before the connection is dropped instead. */
    public static final int BODY_LIMIT = 64 * 1024;

    /**
     * How soon after the request went out an I/O error may come for the request to be sent again on a
     * new connection: a kept-alive connection the receiver had closed fails at once, a receiver that
     * took the request and then broke the connection takes longer.
     */
    static final Duration STALE_CONNECTION_WINDOW = Duration.ofMillis(50);

    private final HttpClient client;
    private final Clock clock;
    private final Duration connectTimeout;
    /** Authorities this client has finished an exchange with, so a pooled connection may be open. */
    private final Set<String> pooled = ConcurrentHashMap.newKeySet();

    /** The Standard Webhooks headers this sender writes from a request's stamp. */
    public static final String ID_HEADER = "webhook-id";

    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    public static final String SIGNATURE_HEADER = "webhook-signature";

    /** Headers this sender writes itself, or that the HTTP client owns; a client's header cannot be one. */
    private static final Set<String> RESERVED = Set.of(
            "content-type",
            "content-length",
            "host",
            "connection",
            "expect",
            "upgrade",
            "transfer-encoding",
            "te",
            "trailer",
            "keep-alive",
            "webhook-id",
            "webhook-timestamp",
            "webhook-signature");

    /**
     * Resolves a destination's host with the system's resolver, as this sender's client does when it
     * connects: the {@link DestinationPolicy}'s resolver in production, so the policy judges the
     * addresses this side would connect to.
     */
    public static final DestinationPolicy.Resolver RESOLVER = host -> List.of(InetAddress.getAllByName(host));

    public JdkWebhookSender(Duration connectTimeout, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    /**
     * Checks the header a client chose for its deliveries, before a destination is set: the name is a
     * token (RFC 9110 5.1) and not one this sender writes itself; the value is visible ASCII, spaces and
     * tabs (RFC 9110 5.5, stricter: not empty, no leading or trailing space), so no CR or LF can smuggle
     * anything into the request.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static void checkHeader(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (!Texts.isHttpToken(name)) {
            throw new IllegalArgumentException("header name '" + printable(name)
                    + "' must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~)");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("header name '" + name + "' is set by the sender itself");
        }
        if (!validFieldValue(value)) {
            throw new IllegalArgumentException(
                    "the header value must be visible characters, spaces or tabs, without CR, LF or other controls");
        }
    }

    private static boolean validFieldValue(String s) {
        if (s.isEmpty() || s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' ') {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c == '\t' || (c >= 0x20 && c < 0x7f))) {
                return false;
            }
        }
        return true;
    }

    private static String printable(String s) {
        return s.replaceAll("[\\p{Cntrl}]", "?");
    }

    /** The connect timeout; an attempt never outlasts the request's timeout, which includes it. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public Outcome send(Request request) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        HttpRequest.Builder b = HttpRequest.newBuilder(request.url())
                .timeout(request.timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()));
        HttpRequest built;
        try {
            for (Map.Entry<String, String> h : request.headers()) {
                b.header(h.getKey(), h.getValue());
            }
            if (request.stamp().isPresent()) {
                Stamp stamp = request.stamp().get();
                b.header(ID_HEADER, stamp.id());
                b.header(TIMESTAMP_HEADER, Long.toString(stamp.timestamp()));
                stamp.signature().ifPresent(s -> b.header(SIGNATURE_HEADER, s));
            }
            built = b.build();
        } catch (IllegalArgumentException e) {
            return failure(Kind.CONNECTION, "requisição inválida");
        }
        String authority = request.url().getScheme() + "://" + request.url().getRawAuthority();
        Exchange first = exchange(built, deadline);
        Exchange done = first;
        if (first.staleConnection() && pooled.contains(authority) && System.nanoTime() < deadline) {
            done = exchange(built, deadline);
        }
        if (done.info() != null) {
            pooled.add(authority);
        }
        return outcome(done, request.timeout());
    }

    /**
     * What one exchange came to: the status line and headers when they arrived, the error when it
     * failed, and whether it failed so soon after it began that the connection was likely stale.
     */
    private record Exchange(HttpResponse.ResponseInfo info, Throwable error, boolean staleConnection) {}

    /**
     * One exchange within the deadline. The body handler reads up to {@link #BODY_LIMIT} bytes and then
     * gives up on the rest; the deadline is enforced here, cancelling the exchange (which closes its
     * connection) when it passes.
     */
    private Exchange exchange(HttpRequest request, long deadline) {
        AtomicReference<HttpResponse.ResponseInfo> info = new AtomicReference<>();
        long began = System.nanoTime();
        CompletableFuture<HttpResponse<Void>> response = client.sendAsync(request, i -> {
            info.set(i);
            return new BoundedDiscard();
        });
        try {
            response.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new Exchange(info.get(), null, false);
        } catch (TimeoutException e) {
            response.cancel(true);
            return new Exchange(info.get(), new HttpTimeoutException("deadline"), false);
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            return new Exchange(info.get(), e, false);
        } catch (ExecutionException e) {
            Throwable cause =
                    e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            boolean stale = info.get() == null
                    && cause instanceof IOException
                    && !(cause instanceof HttpTimeoutException)
                    && !(cause instanceof ConnectException)
                    && System.nanoTime() - began < STALE_CONNECTION_WINDOW.toNanos();
            return new Exchange(info.get(), cause, stale);
        } catch (CancellationException e) {
            return new Exchange(info.get(), e, false);
        }
    }

    private Outcome outcome(Exchange e, Duration timeout) {
        HttpResponse.ResponseInfo info = e.info();
        if (info == null) {
            Throwable error = e.error();
            return switch (error) {
                case HttpConnectTimeoutException t -> failure(Kind.CONNECTION, "conexão não estabelecida no prazo");
                case HttpTimeoutException t -> failure(Kind.TIMEOUT, "sem resposta em " + seconds(timeout));
                case ConnectException c -> failure(Kind.CONNECTION, "conexão recusada");
                case InterruptedException i -> failure(Kind.CONNECTION, "envio interrompido");
                case IllegalArgumentException i -> failure(Kind.CONNECTION, "requisição inválida");
                case null -> failure(Kind.CONNECTION, "erro de conexão");
                default ->
                    failure(
                            Kind.CONNECTION,
                            "erro de conexão: " + error.getClass().getSimpleName());
            };
        }
        int status = info.statusCode();
        Optional<Duration> retryAfter =
                info.headers().firstValue("Retry-After").flatMap(v -> retryAfter(v, clock.instant()));
        if (status >= 200 && status < 300) {
            return new Outcome(Kind.DELIVERED, Optional.of(status), Optional.empty(), "HTTP " + status);
        }
        Kind kind = status >= 300 && status < 400 ? Kind.REDIRECT : Kind.STATUS;
        return new Outcome(
                kind,
                Optional.of(status),
                retryAfter,
                kind == Kind.REDIRECT ? "HTTP " + status + " (redirecionamento não seguido)" : "HTTP " + status);
    }

    private static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    /** Reads and drops a response body, giving up on it (and its connection) past {@link #BODY_LIMIT}. */
    private static final class BoundedDiscard implements HttpResponse.BodySubscriber<Void> {
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private long read;

        @Override
        public CompletionStage<Void> getBody() {
            return done;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                read += b.remaining();
            }
            if (read > BODY_LIMIT && !done.isDone()) {
                subscription.cancel();
                done.complete(null);
            }
        }

        @Override
        public void onError(Throwable error) {
            done.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }

    private static Outcome failure(Kind kind, String detail) {
        return new Outcome(kind, Optional.empty(), Optional.empty(), detail);
    }

    /** RFC 9110 10.2.3: delay-seconds or an HTTP date; empty when it is neither or in the past. */
    static Optional<Duration> retryAfter(String value, Instant now) {
        String v = value.trim();
        if (v.matches("[0-9]{1,10}")) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
        try {
            Instant at =
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return at.isAfter(now) ? Optional.of(Duration.between(now, at)) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
