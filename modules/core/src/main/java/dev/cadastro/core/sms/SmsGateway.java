package dev.cadastro.core.sms;

/**
 * Port: the SMS provider. The adapter keeps the provider contract of {@code dev.cadastro.core.provider}:
 * a timeout, a concurrency bound and a circuit breaker on every call, and {@link
 * dev.cadastro.core.provider.ProviderUnavailableException} as the only failure.
 *
 * <p>Acceptance is not delivery: a provider reports later, in a {@link DeliveryReceipt} naming the
 * message's {@link SmsMessage#reference()}, when a message it accepted could not be delivered. The
 * adapter hands receipts to whoever the server wires ({@link OtpService#receipt}).
 */
public interface SmsGateway {
    /**
     * Hands a message to the provider.
     *
     * @return the provider's id of the accepted message
     * @throws dev.cadastro.core.provider.ProviderUnavailableException when the provider did not accept
     *     it (error, timeout, saturation, open circuit)
     */
    String send(SmsMessage message);
}
