package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Phone;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.provider.ProviderUnavailableException.Failure;
import dev.cadastro.core.sms.DeliveryReceipt;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.core.sms.SmsMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatedSmsTest {
    private static final Phone OK = Phone.of("11987654321");
    private static final Phone FAILS = Phone.of("21987650000");

    @TempDir
    Path home;

    private final TestClock clock = new TestClock(Instant.parse("2026-11-23T15:00:00Z"));

    @Test
    void deliversToAnInboxFileThatOnlyItsOwnerCanReadAndAnotherProcessCanOpen() throws Exception {
        Path file = home.resolve("sms").resolve("inbox.tsv");
        try (SimulatedSms sms = new SimulatedSms(SmsInbox.at(file), FaultPlan.none(), clock, Duration.ofMillis(10))) {
            String id = sms.send(new SmsMessage("sms_1", OK, "codigo e 012345. tab\there"));
            assertTrue(id.startsWith("sim-"));
            sms.send(new SmsMessage("sms_2", Phone.of("31987654321"), "other phone"));
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        List<SmsInbox.Message> read = SmsInbox.at(file).read(OK, 10);
        assertEquals(1, read.size());
        assertEquals(
                new SmsInbox.Message(clock.instant(), "11987654321", "sms_1", "codigo e 012345. tab here"),
                read.get(0));
    }

    @Test
    void aNumberEndingInFourZerosIsAcceptedThenReportedAsFailedLaterAndTwice() throws Exception {
        LinkedBlockingQueue<DeliveryReceipt> receipts = new LinkedBlockingQueue<>();
        Path file = home.resolve("inbox.tsv");
        try (SimulatedSms sms = new SimulatedSms(SmsInbox.at(file), FaultPlan.none(), clock, Duration.ofMillis(50))
                .onReceipt(receipts::add)) {
            long sent = System.nanoTime();
            String id = sms.send(new SmsMessage("sms_f", FAILS, "never arrives"));
            DeliveryReceipt first = receipts.poll(5, TimeUnit.SECONDS);
            long waited = System.nanoTime() - sent;
            assertTrue(waited >= Duration.ofMillis(50).toNanos(), "the receipt came " + waited + " ns after the send");
            assertEquals(new DeliveryReceipt("sms_f", id, false), first);
            assertEquals(first, receipts.poll(5, TimeUnit.SECONDS));
            assertTrue(SmsInbox.at(file).read(FAILS, 10).isEmpty(), "nothing reached the phone");
        }
    }

    @Test
    void aDownPlanFailsTheGuardedCallWithoutDelivering() {
        Path file = home.resolve("inbox.tsv");
        FaultPlan plan = FaultPlan.none().forDocument(OK.national(), new Fault.Down());
        try (SimulatedSms sms = new SimulatedSms(SmsInbox.at(file), plan, clock, Duration.ofMillis(10))) {
            SmsGateway guarded = GuardedProviders.guard(sms, ProviderGuard.of("sms", ProviderPolicy.defaults()));
            ProviderUnavailableException e = assertThrows(
                    ProviderUnavailableException.class, () -> guarded.send(new SmsMessage("sms_d", OK, "x")));
            assertEquals(Failure.ERROR, e.failure());
            assertTrue(SmsInbox.at(file).read(OK, 10).isEmpty());
            guarded.send(new SmsMessage("sms_e", Phone.of("11987654322"), "y")); // other numbers still work
        }
    }

    @Test
    void aSlowPlanTimesOutUnderTheGuard() {
        FaultPlan plan = FaultPlan.parse("slow=2s");
        try (SimulatedSms sms =
                new SimulatedSms(SmsInbox.at(home.resolve("i.tsv")), plan, clock, Duration.ofMillis(10))) {
            SmsGateway guarded = GuardedProviders.guard(
                    sms,
                    ProviderGuard.of(
                            "sms",
                            ProviderPolicy.builder()
                                    .timeout(Duration.ofMillis(200))
                                    .build()));
            assertEquals(
                    Failure.TIMEOUT,
                    assertThrows(ProviderUnavailableException.class, () -> guarded.send(new SmsMessage("s", OK, "z")))
                            .failure());
        }
    }
}
