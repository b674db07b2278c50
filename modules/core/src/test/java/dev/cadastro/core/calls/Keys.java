package dev.cadastro.core.calls;

import dev.cadastro.core.sms.OtpKeyring;
import java.util.Arrays;
import java.util.List;

/** Keyrings for the tests: fixed secrets, one per id. */
final class Keys {
    private Keys() {}

    static OtpKeyring.Key key(String id, int fill) {
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) fill);
        return new OtpKeyring.Key(id, secret);
    }

    static OtpKeyring ring(String current, OtpKeyring.Key... keys) {
        return new OtpKeyring(List.of(keys), current);
    }

    static OtpKeyring one() {
        return ring("k1", key("k1", 1));
    }
}
