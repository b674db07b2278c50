package dev.cadastro.core.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Secrets derived from the keyring for other uses (the person audit trail). */
class KeyringDeriveTest {
    private static byte[] secret(int fill) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private final Keyring keys =
            new Keyring(List.of(new Keyring.Key("k1", secret(1)), new Keyring.Key("k2", secret(2))), "k2");

    @Test
    void derivesUnderTheCurrentKeyStablyAndSeparatelyPerPurposeAndKey() {
        Keyring.Derived audit = keys.derive("person-audit");
        assertEquals("k2", audit.keyId());
        assertArrayEquals(audit.secret(), keys.derive("k2", "person-audit").secret());
        assertFalse(Arrays.equals(audit.secret(), keys.derive("other").secret()));
        assertFalse(
                Arrays.equals(audit.secret(), keys.derive("k1", "person-audit").secret()));
        assertFalse(Arrays.equals(audit.secret(), secret(2)), "never the code key itself");
        assertEquals(32, audit.secret().length);
        assertEquals("Derived[k2]", audit.toString());
        assertThrows(IllegalArgumentException.class, () -> keys.derive("k9", "person-audit"));
    }
}
