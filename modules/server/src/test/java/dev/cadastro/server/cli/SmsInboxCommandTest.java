package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Phone;
import dev.cadastro.providers.SmsInbox;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmsInboxCommandTest {
    @TempDir
    Path home;

    private record Run(int status, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        List.of(args),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void showsTheMessagesDeliveredToOnePhoneWhateverItsPunctuation() {
        SmsInbox inbox = SmsInbox.at(home.resolve("sms-inbox.tsv"));
        Instant t = Instant.parse("2026-11-23T15:00:00Z");
        inbox.deliver(t, Phone.of("11987654321"), "sms_a", "Cadastro: seu codigo de verificacao e 012345.");
        inbox.deliver(t, Phone.of("21987654321"), "sms_b", "another phone's code 999999");
        Run r = run("admin", "sms-inbox", "--home", home.toString(), "--phone", "+55 (11) 98765-4321");
        assertEquals(0, r.status(), r.err());
        assertTrue(
                r.out().contains("2026-11-23T12:00:00-03:00  sms_a  Cadastro: seu codigo de verificacao e 012345."),
                r.out());
        assertTrue(!r.out().contains("999999"), r.out());
        Run none = run("admin", "sms-inbox", "--home", home.toString(), "--phone", "31987654321");
        assertEquals(0, none.status());
        assertTrue(none.out().contains("no message delivered to (31) 98765-4321"), none.out());
    }

    @Test
    void rotatesTheCodeKeysUnderTheHomeKeepingTheOldOne() throws Exception {
        java.nio.file.Path file = home.resolve("secrets").resolve("otp-keys.properties");
        Run none = run("admin", "otp-rotate-key", "--home", home.toString());
        assertNotEquals(0, none.status());
        assertTrue(none.err().contains("no SMS code keys at"), none.err());
        dev.cadastro.core.keys.Keyring first = dev.cadastro.server.OtpSecrets.resolve(
                java.util.Map.of(), file, true, new java.security.SecureRandom());
        Run r = run("admin", "otp-rotate-key", "--home", home.toString());
        assertEquals(0, r.status(), r.err());
        dev.cadastro.core.keys.Keyring after = dev.cadastro.server.OtpSecrets.load(file);
        assertTrue(r.out().contains("SMS code key " + after.current() + " added"), r.out());
        assertNotEquals(first.current(), after.current());
        assertTrue(after.has(first.current()), "the old key stays for codes in flight");
        assertTrue(
                !r.out()
                        .contains(java.nio.file.Files.readString(file)
                                .lines()
                                .filter(l -> l.startsWith("key."))
                                .findFirst()
                                .orElseThrow()
                                .substring(8)),
                "no key is printed");
    }

    @Test
    void refusesAFixedLineAndAHomeWithoutAnInbox() {
        Run fixed = run("admin", "sms-inbox", "--home", home.toString(), "--phone", "1132345678");
        assertNotEquals(0, fixed.status());
        assertTrue(fixed.err().contains("only mobile numbers"), fixed.err());
        Run empty = run("admin", "sms-inbox", "--home", home.resolve("nothing").toString(), "--phone", "11987654321");
        assertNotEquals(0, empty.status());
        assertTrue(empty.err().contains("no SMS inbox at"), empty.err());
    }
}
