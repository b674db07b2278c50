package dev.cadastro.core.sms;

import dev.cadastro.core.document.Phone;
import java.util.Objects;

/**
 * A text message to send.
 *
 * @param reference our id for it (the dispatch id), which the provider's delivery receipt repeats
 * @param to a mobile number
 * @param text the text; it carries the code, so {@link #toString()} leaves it out and masks the phone
 */
public record SmsMessage(String reference, Phone to, String text) {
    public SmsMessage {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return "SmsMessage[reference=" + reference + ", to=" + OtpRequest.mask(to) + ", " + text.length()
                + " characters]";
    }
}
