package dev.cadastro.core.sms;

import java.util.Objects;

/**
 * A provider's report on a message it accepted, as a real provider's delivery-receipt callback sends it.
 *
 * @param reference the {@link SmsMessage#reference()} of the message (our dispatch id)
 * @param providerMessageId the provider's id of the message
 * @param delivered true when it reached the phone; false when delivery failed for good
 */
public record DeliveryReceipt(String reference, String providerMessageId, boolean delivered) {
    public DeliveryReceipt {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(providerMessageId, "providerMessageId");
    }
}
