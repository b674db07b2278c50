package dev.cadastro.core.calls.push;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Port: sends one webhook request and says what happened. It never follows a redirect, never throws
 * for the receiver's failures (they are outcomes), and gives up after the request's timeout.
 */
public interface WebhookSender {

    /**
     * One POST.
     *
     * @param headers the client's own, in order (the destination's header); the sender adds {@code
     *     Content-Type: application/json} and writes the {@code stamp} as the Standard Webhooks headers
     *     after them
     * @param stamp the delivery's id, timestamp and signature, when it has them
     */
    record Request(
            URI url, List<Map.Entry<String, String>> headers, Optional<Stamp> stamp, byte[] body, Duration timeout) {
        public Request {
            Objects.requireNonNull(url, "url");
            headers = List.copyOf(headers);
            Objects.requireNonNull(stamp, "stamp");
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(timeout, "timeout");
        }

        /** A request without a stamp. */
        public Request(URI url, List<Map.Entry<String, String>> headers, byte[] body, Duration timeout) {
            this(url, headers, Optional.empty(), body, timeout);
        }

        /**
         * The origin, the header names, whether it is stamped and signed, and the sizes only: header
         * values (the client's credential, the signature) and the URL's path and query never reach a log
         * through this.
         */
        @Override
        public String toString() {
            return "Request[" + DestinationPolicy.origin(url) + ", headers "
                    + headers.stream().map(Map.Entry::getKey).toList()
                    + stamp.map(s -> s.signature().isPresent() ? ", stamped and signed" : ", stamped")
                            .orElse("")
                    + ", " + body.length + " bytes, timeout " + timeout + "]";
        }
    }

    /**
     * What identifies a delivery to its receiver, the Standard Webhooks way ({@link WebhookSignature}):
     * the sender writes them as its headers.
     *
     * @param id the delivery's id, the same on every attempt: the receiver's deduplication key
     * @param timestamp Unix seconds of this attempt
     * @param signature {@code v1,<base64>} when the destination has a secret
     */
    record Stamp(String id, long timestamp, Optional<String> signature) {
        public Stamp {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(signature, "signature");
        }
    }

    /** How an attempt ended. */
    enum Kind {
        /** A 2xx status. */
        DELIVERED,
        /** Another status (not a redirect). */
        STATUS,
        /** A 3xx: not followed, a failure. */
        REDIRECT,
        /** No answer within the timeout. */
        TIMEOUT,
        /** No connection, a reset, a TLS failure. */
        CONNECTION
    }

    /**
     * @param status the receiver's status when there was an answer; always present when delivered
     * @param retryAfter the receiver's {@code Retry-After}, parsed, when it sent one
     * @param detail a short safe description for the operator (never the body, never a header value)
     */
    record Outcome(Kind kind, Optional<Integer> status, Optional<Duration> retryAfter, String detail) {
        public Outcome {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(retryAfter, "retryAfter");
            Objects.requireNonNull(detail, "detail");
            if (kind == Kind.DELIVERED && status.isEmpty()) {
                // The receiver's answer is what delivered it: the sender says which.
                throw new IllegalArgumentException("a delivered outcome carries the receiver's status");
            }
        }

        public boolean delivered() {
            return kind == Kind.DELIVERED;
        }
    }

    Outcome send(Request request);
}
