package dev.cadastro.core.sms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class OtpCodeTest {

    private static SecureRandom seeded() throws NoSuchAlgorithmException {
        // A seeded SHA1PRNG is deterministic: the counts below are the same on every run.
        SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
        random.setSeed(42L);
        return random;
    }

    @Test
    void codesHaveTheRequestedDigitsAndKeepLeadingZeros() throws NoSuchAlgorithmException {
        SecureRandom random = seeded();
        int leadingZero = 0;
        for (int i = 0; i < 20_000; i++) {
            OtpCode code = OtpCode.generate(random, 6);
            assertTrue(code.reveal().matches("[0-9]{6}"), code.reveal());
            if (code.reveal().charAt(0) == '0') {
                leadingZero++;
            }
        }
        // A tenth of uniform 6-digit codes start with 0; a generator that drops them would have none.
        assertTrue(leadingZero > 1_700 && leadingZero < 2_300, "codes starting with 0: " + leadingZero);
    }

    @Test
    void everyDigitIsUniformAtEveryPosition() throws NoSuchAlgorithmException {
        SecureRandom random = seeded();
        int n = 50_000;
        int[][] counts = new int[4][10];
        for (int i = 0; i < n; i++) {
            String code = OtpCode.generate(random, 4).reveal();
            for (int p = 0; p < 4; p++) {
                counts[p][code.charAt(p) - '0']++;
            }
        }
        for (int p = 0; p < 4; p++) {
            double expected = n / 10.0;
            double chi2 = 0;
            for (int c : counts[p]) {
                chi2 += (c - expected) * (c - expected) / expected;
            }
            // 9 degrees of freedom: 27.88 is the 0.999 quantile.
            assertTrue(chi2 < 27.88, "position " + p + " chi-square " + chi2);
        }
    }

    @Test
    void aCodeNeverShowsItselfInToString() throws NoSuchAlgorithmException {
        OtpCode code = OtpCode.generate(seeded(), 8);
        assertEquals("********", code.toString());
        assertFalse(String.valueOf(code).contains(code.reveal()));
    }

    @Test
    void refusesDigitsOutsideFourToEight() {
        assertThrows(IllegalArgumentException.class, () -> OtpCode.generate(new SecureRandom(), 3));
        assertThrows(IllegalArgumentException.class, () -> OtpCode.generate(new SecureRandom(), 9));
    }

    @Test
    void typedCodesAreOneToEightAsciiDigits() {
        assertTrue(OtpCode.typed("0123").isPresent());
        assertTrue(OtpCode.typed("").isEmpty());
        assertTrue(OtpCode.typed("123456789").isEmpty());
        assertTrue(OtpCode.typed("12a4").isEmpty());
        assertTrue(OtpCode.typed("١٢٣٤").isEmpty(), "Arabic-Indic digits are not ASCII digits");
    }

    @Test
    void drawsOneBoundedNumberSoNoDigitIsFavoured() {
        // nextInt(10^d) is uniform by contract; nextInt() % 10^d would favour low codes by about 1e-5,
        // which no sample of this size could see. So the test pins the call itself.
        java.util.List<Integer> bounds = new java.util.ArrayList<>();
        java.security.SecureRandom recording = new java.security.SecureRandom() {
            @Override
            public int nextInt(int bound) {
                bounds.add(bound);
                return bound - 1;
            }

            @Override
            public int nextInt() {
                throw new AssertionError("an unbounded draw would need a modulo");
            }
        };
        for (int digits = 4; digits <= 8; digits++) {
            assertEquals("9".repeat(digits), OtpCode.generate(recording, digits).reveal());
        }
        assertEquals(java.util.List.of(10_000, 100_000, 1_000_000, 10_000_000, 100_000_000), bounds);
    }
}
