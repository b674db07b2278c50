package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.keys.Keyring;
import dev.cadastro.server.CallsSecrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallsRotateKeyCommandTest {
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
    void rotatesTheCallRecordsKeysAloneKeepingTheOldOne() throws Exception {
        Path file = CallsSecrets.fileUnder(home);
        Run none = run("admin", "calls-rotate-key", "--home", home.toString());
        assertNotEquals(0, none.status());
        assertTrue(none.err().contains("no call-records keys at"), none.err());
        Path otp = home.resolve("secrets").resolve("otp-keys.properties");
        dev.cadastro.server.OtpSecrets.resolve(Map.of(), otp, true, new SecureRandom());
        String otpBefore = Files.readString(otp);
        Keyring first = CallsSecrets.KEYRING.resolve(Map.of(), file, true, new SecureRandom());

        Run r = run("admin", "calls-rotate-key", "--home", home.toString());
        assertEquals(0, r.status(), r.err());
        Keyring after = CallsSecrets.KEYRING.load(file);
        assertTrue(r.out().contains("call-records key " + after.current() + " added"), r.out());
        assertNotEquals(first.current(), after.current());
        assertTrue(after.has(first.current()), "the old key stays: links signed with it stay valid");
        assertEquals(otpBefore, Files.readString(otp), "the SMS code keys are not touched");
        String secret = Files.readString(file)
                .lines()
                .filter(l -> l.startsWith("key."))
                .findFirst()
                .orElseThrow();
        assertFalse(r.out().contains(secret.substring(secret.indexOf('=') + 1)), "no key is printed");
    }

    @Test
    void rotatesInTwoStepsForSeveralServers() {
        Path file = CallsSecrets.fileUnder(home);
        Keyring first = CallsSecrets.KEYRING.resolve(Map.of(), file, true, new SecureRandom());

        Run add = run("admin", "calls-rotate-key", "--home", home.toString(), "--add-only");
        assertEquals(0, add.status(), add.err());
        Keyring added = CallsSecrets.KEYRING.load(file);
        assertEquals(first.current(), added.current(), "step 1 adds a key that does not sign yet");
        String id = added.has("k2") ? "k2" : "";
        assertEquals("k2", id);
        assertTrue(add.out().contains("--make-current k2"), add.out());

        Run current = run("admin", "calls-rotate-key", "--home", home.toString(), "--make-current", "k2");
        assertEquals(0, current.status(), current.err());
        assertEquals("k2", CallsSecrets.KEYRING.load(file).current());

        Run unknown = run("admin", "calls-rotate-key", "--home", home.toString(), "--make-current", "k9");
        assertNotEquals(0, unknown.status());
        assertTrue(unknown.err().contains("no key k9"), unknown.err());
        assertEquals("k2", CallsSecrets.KEYRING.load(file).current());
    }

    @Test
    void itsHelpSaysWhatDroppingAKeyBreaks() {
        Run help = run("admin", "calls-rotate-key", "--help");
        String text = (help.out() + help.err()).replaceAll("\\s+", " ");
        assertTrue(text.contains("url_gravacao"), text);
        assertTrue(text.contains("cursor"), text);
    }
}
