package dev.cadastro.benchmarks.documents;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import java.util.SplittableRandom;

/**
 * Realistic inputs for the document benchmarks: valid documents as forms and APIs receive them, half
 * with punctuation and half without, in a random order so that branch prediction cannot learn a
 * pattern. A fixed seed makes every run measure the same inputs.
 */
final class DocumentInputs {
    /** A power of two, so the index wraps with a mask; large enough to defeat value profiling. */
    static final int SIZE = 1024;

    private DocumentInputs() {}

    /** Valid CPFs, about half formatted ({@code NNN.NNN.NNN-NN}). */
    static String[] cpfs(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] out = new String[SIZE];
        for (int i = 0; i < SIZE; i++) {
            Cpf cpf;
            do {
                cpf = tryCpf(random);
            } while (cpf == null);
            out[i] = random.nextBoolean() ? cpf.formatted() : cpf.digits();
        }
        return out;
    }

    /**
     * Valid CNPJs, about half formatted; a quarter of them alphanumeric (issued since July 2026), the
     * rest numeric.
     */
    static String[] cnpjs(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] out = new String[SIZE];
        for (int i = 0; i < SIZE; i++) {
            boolean alphanumeric = random.nextInt(4) == 0;
            StringBuilder body = new StringBuilder(12);
            for (int j = 0; j < 8; j++) {
                body.append(
                        alphanumeric
                                ? "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".charAt(random.nextInt(36))
                                : digit(random));
            }
            body.append("000").append(1 + random.nextInt(9)); // order 0001..0009: head office and branches
            Cnpj cnpj = Cnpj.withCheckDigits(body);
            out[i] = random.nextBoolean() ? cnpj.formatted() : cnpj.value();
        }
        return out;
    }

    private static Cpf tryCpf(SplittableRandom random) {
        StringBuilder nine = new StringBuilder(9);
        for (int j = 0; j < 9; j++) {
            nine.append(digit(random));
        }
        try {
            return Cpf.withCheckDigits(nine);
        } catch (IllegalArgumentException oneRepeatedDigit) {
            return null;
        }
    }

    private static char digit(SplittableRandom random) {
        return (char) ('0' + random.nextInt(10));
    }
}
