package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.sms.OtpCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OtpSecretsTest {
    private static final String SECRET_A = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String SECRET_B =
            Base64.getEncoder().encodeToString("b".repeat(40).getBytes());

    @TempDir
    Path home;

    @Test
    void createsAKeyFileOnlyItsOwnerCanReadOnFirstStartAndReusesItAfter() throws Exception {
        Path file = home.resolve("secrets").resolve("otp-keys.properties");
        Keyring first = OtpSecrets.resolve(Map.of(), file, true, new SecureRandom());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        Keyring again = OtpSecrets.resolve(Map.of(), file, true, new SecureRandom());
        OtpCode code = OtpCode.typed("01234567").orElseThrow();
        byte[] mac = first.mac(first.current(), "sms_1", code);
        assertTrue(again.matches(again.current(), "sms_1", code, mac), "a restart keeps the key");
    }

    @Test
    void theEnvironmentVariableWinsAndItsFirstKeyIsCurrent() {
        Path file = home.resolve("absent.properties");
        Keyring keys = OtpSecrets.resolve(
                Map.of(OtpSecrets.ENV, "b=" + SECRET_B + ",a=" + SECRET_A), file, true, new SecureRandom());
        assertEquals("b", keys.current());
        assertTrue(keys.has("a"));
        assertFalse(Files.exists(file), "nothing is generated when the environment has the keys");
    }

    @Test
    void withoutKeysAndWithoutCreatingItRefusesToStart() {
        Path file = home.resolve("absent.properties");
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> OtpSecrets.resolve(Map.of(), file, false, new SecureRandom()));
        assertTrue(e.getMessage().contains(OtpSecrets.ENV));
    }

    @Test
    void rotationAddsANewCurrentKeyAndKeepsTheOldOneForCodesInFlight() {
        Path file = home.resolve("otp-keys.properties");
        Keyring before = OtpSecrets.resolve(Map.of(), file, true, new SecureRandom());
        OtpCode code = OtpCode.typed("7654").orElseThrow();
        byte[] inFlight = before.mac(before.current(), "sms_9", code);
        String id = OtpSecrets.rotate(file, new SecureRandom());
        Keyring after = OtpSecrets.load(file);
        assertEquals(id, after.current());
        assertFalse(id.equals(before.current()));
        assertTrue(after.matches(before.current(), "sms_9", code, inFlight));
    }

    @Test
    void refusesAKeysFileOthersCanRead() throws Exception {
        java.nio.file.Path file = home.resolve("hand-written.properties");
        java.nio.file.Files.writeString(file, "current=k1\nkey.k1=" + SECRET_A + "\n");
        java.nio.file.Files.setPosixFilePermissions(
                file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> OtpSecrets.load(file));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
        java.nio.file.Files.setPosixFilePermissions(
                file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertEquals("k1", OtpSecrets.load(file).current());
    }

    @Test
    void errorsNameTheSourceAndTheKeyNeverTheSecret() {
        IllegalArgumentException bad =
                assertThrows(IllegalArgumentException.class, () -> OtpSecrets.parse("k1=not*base64" + SECRET_B));
        assertTrue(bad.getMessage().contains("k1"));
        assertFalse(bad.getMessage().contains(SECRET_B));
        IllegalArgumentException shortKey = assertThrows(
                IllegalArgumentException.class,
                () -> OtpSecrets.parse("k1=" + Base64.getEncoder().encodeToString(new byte[16])));
        assertTrue(shortKey.getMessage().contains("at least 32"));
        // A key pasted without "id=": base64 padding becomes the separator, the secret the id.
        String bare = Base64.getEncoder().encodeToString("c".repeat(32).getBytes());
        IllegalArgumentException noId = assertThrows(IllegalArgumentException.class, () -> OtpSecrets.parse(bare));
        assertFalse(noId.getMessage().contains(bare.substring(0, 12)), noId.getMessage());
        assertTrue(noId.getMessage().contains("id=base64"), noId.getMessage());
    }
}
