package dev.cadastro.core.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.RecordingLinks.Verdict;
import dev.cadastro.core.internal.ManualClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecordingLinksTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T15:00:00Z"));
    private final RecordingLinks links =
            new RecordingLinks(Keys.one(), "http://rec.example:9000/", clock, new SecureRandom());
    private final CallRecord call = new CallRecord(
            7,
            "ABC-1",
            "ABC-1",
            "42",
            "maria.silva",
            "Maria Silva",
            "vendas",
            "10",
            "Venda",
            clock.instant(),
            clock.instant().minusSeconds(90),
            60,
            clock.instant(),
            "calls/7/ABC-1.wav");

    private static String query(String link) {
        return link.substring(link.indexOf('?') + 1);
    }

    @Test
    void temporaryLinkWorksForOneHourThenExpires() {
        String link = links.temporary(call);
        assertTrue(link.startsWith("http://rec.example:9000/calls/7/ABC-1.wav?k=k1&e="), link);
        assertEquals(Verdict.VALID, links.verify(call.recordingKey(), query(link)));
        clock.advance(Duration.ofHours(1).minusSeconds(1));
        assertEquals(Verdict.VALID, links.verify(call.recordingKey(), query(link)));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Verdict.EXPIRED, links.verify(call.recordingKey(), query(link)));
    }

    @Test
    void temporaryLinksAreNewEachTime() {
        assertNotEquals(links.temporary(call), links.temporary(call));
    }

    @Test
    void permanentLinkNeverExpiresButDiesWithItsKey() {
        String link = links.permanent(call);
        clock.advance(Duration.ofDays(3650));
        assertEquals(Verdict.VALID, links.verify(call.recordingKey(), query(link)));
        RecordingLinks rotated = new RecordingLinks(
                Keys.ring("k2", Keys.key("k1", 1), Keys.key("k2", 2)),
                "http://rec.example:9000",
                clock,
                new SecureRandom());
        assertEquals(Verdict.VALID, rotated.verify(call.recordingKey(), query(link)));
        RecordingLinks dropped = new RecordingLinks(
                Keys.ring("k2", Keys.key("k2", 2)), "http://rec.example:9000", clock, new SecureRandom());
        assertEquals(Verdict.INVALID, dropped.verify(call.recordingKey(), query(link)));
    }

    @Test
    void refusesATamperedLinkOrAnotherRecording() {
        String q = query(links.temporary(call));
        assertEquals(Verdict.INVALID, links.verify("calls/7/OTHER.wav", q));
        String later = q.replaceFirst("e=(\\d+)", "e=9$1");
        assertEquals(Verdict.INVALID, links.verify(call.recordingKey(), later));
        String sig = q.substring(q.indexOf("s=") + 2);
        char c = sig.charAt(3) == 'A' ? 'B' : 'A';
        String flipped = q.substring(0, q.indexOf("s=") + 2) + sig.substring(0, 3) + c + sig.substring(4);
        assertEquals(Verdict.INVALID, links.verify(call.recordingKey(), flipped));
        // Dropping the expiry turns a temporary link into no valid link, not a permanent one.
        String noExpiry = q.replaceFirst("&e=\\d+&n=[^&]+", "");
        assertEquals(Verdict.INVALID, links.verify(call.recordingKey(), noExpiry));
        assertEquals(Verdict.INVALID, links.verify(call.recordingKey(), q + "&s=x"));
        assertEquals(Verdict.INVALID, links.verify(call.recordingKey(), ""));
    }
}
