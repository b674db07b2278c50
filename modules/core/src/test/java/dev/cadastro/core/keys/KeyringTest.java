package dev.cadastro.core.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.sms.OtpCode;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class KeyringTest {
    private static final byte[] OLD = filled(1);
    private static final byte[] NEW = filled(2);
    private static final OtpCode CODE = OtpCode.typed("042917").orElseThrow();

    private static byte[] filled(int b) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) b);
        return secret;
    }

    @Test
    void theMacIsHmacSha256OfTheCodeBoundToTheDispatch() throws Exception {
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", OLD)), "k1");
        Mac reference = Mac.getInstance("HmacSHA256");
        reference.init(new SecretKeySpec(OLD, "HmacSHA256"));
        byte[] expected = reference.doFinal("otp:v1:sms_1:042917".getBytes());
        assertArrayEquals(expected, keys.mac("k1", "sms_1", CODE));
    }

    @Test
    void aMacMatchesOnlyItsOwnDispatchAndCode() {
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", OLD)), "k1");
        byte[] mac = keys.mac("k1", "sms_1", CODE);
        assertTrue(keys.matches("k1", "sms_1", CODE, mac));
        assertFalse(keys.matches("k1", "sms_2", CODE, mac), "copied to another dispatch");
        assertFalse(keys.matches("k1", "sms_1", OtpCode.typed("042918").orElseThrow(), mac));
        assertFalse(keys.matches("k1", "sms_1", OtpCode.typed("42917").orElseThrow(), mac), "leading zero dropped");
    }

    @Test
    void rotationKeepsCodesInFlightCheckableAndNewCodesUseTheNewKey() {
        Keyring before = new Keyring(List.of(new Keyring.Key("k1", OLD)), "k1");
        byte[] inFlight = before.mac(before.current(), "sms_1", CODE);
        Keyring after = new Keyring(List.of(new Keyring.Key("k1", OLD), new Keyring.Key("k2", NEW)), "k2");
        assertEquals("k2", after.current());
        assertTrue(after.matches("k1", "sms_1", CODE, inFlight), "checked with the key id stored with the dispatch");
        assertFalse(Arrays.equals(inFlight, after.mac(after.current(), "sms_1", CODE)));
        Keyring dropped = new Keyring(List.of(new Keyring.Key("k2", NEW)), "k2");
        assertFalse(dropped.matches("k1", "sms_1", CODE, inFlight), "a dropped key matches nothing");
    }

    @Test
    void refusesShortSecretsUnknownCurrentIdsAndRepeatedIds() {
        assertThrows(IllegalArgumentException.class, () -> new Keyring.Key("k1", new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> new Keyring.Key("k 1", OLD));
        assertThrows(IllegalArgumentException.class, () -> new Keyring(List.of(new Keyring.Key("k1", OLD)), "k2"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Keyring(List.of(new Keyring.Key("k1", OLD), new Keyring.Key("k1", NEW)), "k1"));
    }

    @Test
    void toStringNamesIdsNeverSecrets() {
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", OLD)), "k1");
        String text = keys + " " + new Keyring.Key("k1", OLD);
        assertTrue(text.contains("k1"));
        assertFalse(text.contains(HexFormat.of().formatHex(OLD)));
        assertFalse(text.contains("1, 1, 1"));
    }
}
