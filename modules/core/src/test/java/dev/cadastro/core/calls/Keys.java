package dev.cadastro.core.calls;

import dev.cadastro.core.keys.Keyring;
import java.util.Arrays;
import java.util.List;

/** Keyrings for the tests: fixed secrets, one per id. */
final class Keys {
    private Keys() {}

    static Keyring.Key key(String id, int fill) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) fill);
        return new Keyring.Key(id, secret);
    }

    static Keyring ring(String current, Keyring.Key... keys) {
        return new Keyring(List.of(keys), current);
    }

    static Keyring one() {
        return ring("k1", key("k1", 1));
    }
}
