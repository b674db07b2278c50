package dev.cadastro.core.calls.push;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookSenderTest {
    @Test
    void aRequestPrintsItsOriginAndHeaderNamesButNoHeaderValuePathOrQuery() {
        WebhookSender.Request r = new WebhookSender.Request(
                URI.create("https://crm.example.com:8443/hook/s3cr3t-path?token=s3cr3t-query"),
                List.of(Map.entry("Authorization", "Bearer s3cr3t-token")),
                Optional.of(new WebhookSender.Stamp("msg_1", 1_700_000_000L, Optional.of("v1,s3cr3t-signature"))),
                "{}".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10));
        String text = r.toString();
        assertFalse(text.contains("s3cr3t"), text);
        assertTrue(text.contains("https://crm.example.com:8443"), text);
        assertTrue(text.contains("Authorization") && text.contains("signed"), text);
    }
}
