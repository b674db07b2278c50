package dev.cadastro.core.calls.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.Integration;
import java.net.URI;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PushDestinationTest {
    private static final Integration CRM = new Integration(1, "crm");
    private static final URI URL = URI.create("https://crm.example.com/ligacoes");

    private static PushDestination with(String name, String value) {
        return new PushDestination(CRM, URL, name, value, true, null, true);
    }

    @Test
    void acceptsATokenHeaderNameAndAVisibleValue() {
        PushDestination d = with("Authorization", "Bearer abc.def-123");
        assertEquals("Authorization", d.headerName());
        assertTrue(d.secret().isEmpty());
        with("X-Api-Key", "k\tv");
    }

    @Test
    void masksTheHeaderValueAndTheSecretInItsTextForm() {
        String secret = PushDestination.newSecret(new SplittableRandom(3));
        PushDestination d =
                new PushDestination(CRM, URL, "Authorization", "Bearer s3cr3t-token-value", false, secret, true);
        assertFalse(d.toString().contains("s3cr3t-token-value"), d.toString());
        assertFalse(d.toString().contains(secret.substring(10)), d.toString());
        assertTrue(d.maskedHeaderValue().startsWith("Bear"));
        assertTrue(d.maskedSecret().startsWith("whsec_"));
    }
}
