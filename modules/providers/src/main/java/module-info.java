/**
 * The outside providers behind the core's provider ports, and how Cadastro calls them.
 *
 * <ul>
 *   <li>{@link dev.cadastro.providers.SimulatedBureau} and {@link dev.cadastro.providers.SimulatedCreditBureau}:
 *       deterministic simulated providers derived from the register (the same document gives the same
 *       answer on every run), whose raw answers carry personal fields that the core's allowlists drop,
 *       and which can be told by a {@link dev.cadastro.providers.FaultPlan} to be down, slow or to
 *       answer garbage;
 *   <li>{@link dev.cadastro.providers.SimulatedSms}: a simulated SMS provider that delivers to an
 *       operator-only {@link dev.cadastro.providers.SmsInbox} file, reports failed deliveries later by
 *       receipt, and follows a fault plan too;
 *   <li>{@link dev.cadastro.providers.ProviderGuard} and {@link dev.cadastro.providers.GuardedProviders}:
 *       every call under a timeout (on a virtual thread that is interrupted when it expires), a
 *       bulkhead and a circuit breaker, all from resilience4j, with every failure turned into the core's
 *       {@code ProviderUnavailableException};
 *   <li>{@link dev.cadastro.providers.JdkWebhookSender}: the push deliveries' POST to a client's
 *       endpoint, on the JDK's HTTP client, redirects never followed;
 *   <li>{@link dev.cadastro.providers.calls.SimulatedExchange}: a deterministic, stateless simulated
 *       telephone exchange for the call-records service, writing WAV recordings; and {@link
 *       dev.cadastro.providers.calls.JsonlCallFile}, the import of calls exported from a real one.
 * </ul>
 */
module dev.cadastro.providers {
    requires transitive dev.cadastro.core;
    requires io.github.resilience4j.core;
    requires org.slf4j;
    requires io.github.resilience4j.circuitbreaker;
    requires io.github.resilience4j.bulkhead;
    requires io.github.resilience4j.timelimiter;
    // The push deliveries' sender (JdkWebhookSender).
    requires java.net.http;
    // The calls-file import (JSON Lines) on the streaming parser.
    requires com.fasterxml.jackson.core;

    exports dev.cadastro.providers;
    exports dev.cadastro.providers.calls;
}
