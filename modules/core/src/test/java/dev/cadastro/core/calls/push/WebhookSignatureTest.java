package dev.cadastro.core.calls.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {
    // The known-answer vector published with the Standard Webhooks specification.
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330L;
    private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void signsTheSpecificationsKnownAnswerVector() {
        assertEquals(SIGNATURE, WebhookSignature.sign(SECRET, ID, TIMESTAMP, BODY));
    }

    @Test
    void verifiesTheVectorWithinTheToleranceAndAmongOtherSignatures() {
        Instant then = Instant.ofEpochSecond(TIMESTAMP);
        Duration fiveMinutes = Duration.ofMinutes(5);
        assertTrue(WebhookSignature.verify(SECRET, ID, "1614265330", SIGNATURE, BODY, then, fiveMinutes));
        assertTrue(WebhookSignature.verify(
                SECRET, ID, "1614265330", "v1,bm90IGl0 " + SIGNATURE, BODY, then.plusSeconds(299), fiveMinutes));
    }

    @Test
    void refusesATamperedBodyAnotherIdAStaleTimestampOrAnotherSecret() {
        Instant then = Instant.ofEpochSecond(TIMESTAMP);
        Duration tol = Duration.ofMinutes(5);
        byte[] tampered = "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8);
        assertFalse(WebhookSignature.verify(SECRET, ID, "1614265330", SIGNATURE, tampered, then, tol));
        assertFalse(WebhookSignature.verify(SECRET, ID + "x", "1614265330", SIGNATURE, BODY, then, tol));
        assertFalse(WebhookSignature.verify(SECRET, ID, "1614265330", SIGNATURE, BODY, then.plusSeconds(301), tol));
        String other = PushDestination.newSecret(new SplittableRandom(1));
        assertFalse(WebhookSignature.verify(other, ID, "1614265330", SIGNATURE, BODY, then, tol));
    }

    @Test
    void refusesSecretsThatAreNotWhsecBase64OfTwentyFourToSixtyFourBytes() {
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.key("whsec_not base64!"));
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.key("whsec_c2hvcnQ="));
        assertEquals(32, WebhookSignature.key(PushDestination.newSecret(new SplittableRandom(2))).length);
    }
}
