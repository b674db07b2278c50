package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The header a client chooses for its deliveries, checked by the sender that will write it. */
class WebhookHeaderRulesTest {

    @Test
    void acceptsATokenHeaderNameAndAVisibleValue() {
        JdkWebhookSender.checkHeader("Authorization", "Bearer abc.def-123");
        JdkWebhookSender.checkHeader("X-Api-Key", "k\tv");
    }

    @Test
    void refusesHeaderNamesThatAreNotTokensOrThatTheSenderSets() {
        for (String name :
                new String[] {"", "X Api", "X:Api", "X\r\nInjected", "Ação", "Content-Type", "webhook-id", "Host"}) {
            assertThrows(IllegalArgumentException.class, () -> JdkWebhookSender.checkHeader(name, "v"), name);
        }
        assertEquals(
                "header name 'X?Api' must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~)",
                assertThrows(IllegalArgumentException.class, () -> JdkWebhookSender.checkHeader("X\nApi", "v"))
                        .getMessage());
        assertEquals(
                "header name 'Webhook-Signature' is set by the sender itself",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> JdkWebhookSender.checkHeader("Webhook-Signature", "v"))
                        .getMessage());
    }

    @Test
    void refusesHeaderValuesWithCrLfOrOtherControls() {
        for (String value : new String[] {"a\r\nX-Evil: 1", "a\nb", "a\rb", "a\u0000b", "", " lead", "ação"}) {
            assertThrows(
                    IllegalArgumentException.class, () -> JdkWebhookSender.checkHeader("Authorization", value), value);
        }
    }
}
