package dev.cadastro.providers;

import dev.cadastro.core.calls.push.WebhookSender;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;

/**
 * Sends push deliveries with the JDK's {@link HttpClient}: HTTP/1.1, redirects never followed (a 3xx
 * is a failed attempt), a connect timeout and a whole-request timeout, the response body read and
 * dropped (never logged or stored). A {@code Retry-After} in seconds or as an HTTP date is parsed
 * against the injected clock.
 */
public final class JdkWebhookSender implements WebhookSender {
    private final HttpClient client;
    private final Clock clock;

    public JdkWebhookSender(Duration connectTimeout, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    @Override
    public Outcome send(Request request) {
        HttpRequest.Builder b = HttpRequest.newBuilder(request.url())
                .timeout(request.timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()));
        for (Map.Entry<String, String> h : request.headers()) {
            b.header(h.getKey(), h.getValue());
        }
        HttpResponse<Void> response;
        try {
            response = sendOnce(b.build());
        } catch (HttpConnectTimeoutException e) {
            return failure(Kind.CONNECTION, "conexão não estabelecida no prazo");
        } catch (HttpTimeoutException e) {
            return failure(Kind.TIMEOUT, "sem resposta em " + request.timeout().toSeconds() + " s");
        } catch (ConnectException e) {
            return failure(Kind.CONNECTION, "conexão recusada");
        } catch (IOException e) {
            return failure(Kind.CONNECTION, "erro de conexão: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failure(Kind.CONNECTION, "envio interrompido");
        } catch (IllegalArgumentException e) {
            return failure(Kind.CONNECTION, "requisição inválida");
        }
        int status = response.statusCode();
        Optional<Duration> retryAfter =
                response.headers().firstValue("Retry-After").flatMap(v -> retryAfter(v, clock.instant()));
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

    /**
     * Sends, and sends once more on a new connection when a kept-alive connection turns out to have
     * been closed by the receiver (an I/O error that is neither a timeout nor a refused connection):
     * receivers close idle connections whenever they like, and that is no failure of theirs. The
     * request may have arrived the first time; a duplicate is what at-least-once allows.
     */
    private HttpResponse<Void> sendOnce(HttpRequest request) throws IOException, InterruptedException {
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding());
        } catch (HttpTimeoutException | ConnectException e) {
            throw e;
        } catch (IOException e) {
            return client.send(request, HttpResponse.BodyHandlers.discarding());
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
