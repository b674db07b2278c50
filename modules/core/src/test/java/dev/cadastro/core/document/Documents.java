package dev.cadastro.core.document;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators of documents for properties, built on {@link Oracle} rather than on production code. */
final class Documents {
    private static final String LETTERS_AND_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private Documents() {}

    /** Canonical valid CPFs: nine random digits (not all equal) and their check digits. */
    static Arbitrary<String> validCpfs() {
        return Arbitraries.strings()
                .numeric()
                .ofLength(9)
                .filter(s -> !s.chars().allMatch(c -> c == s.charAt(0)))
                .map(s -> s + Oracle.cpfCheckDigits(s));
    }

    /** Canonical valid numeric CNPJs. */
    static Arbitrary<String> validNumericCnpjs() {
        return Arbitraries.strings()
                .numeric()
                .ofLength(12)
                .filter(s -> !s.chars().allMatch(c -> c == '0'))
                .map(s -> s + Oracle.cnpjCheckDigits(s));
    }

    /** Canonical valid alphanumeric CNPJs: at least one letter among the first twelve characters. */
    static Arbitrary<String> validAlphanumericCnpjs() {
        return Combinators.combine(
                        Arbitraries.strings().withChars(LETTERS_AND_DIGITS).ofLength(12),
                        Arbitraries.integers().between(0, 11),
                        Arbitraries.chars().range('A', 'Z'))
                .as((body, at, letter) -> body.substring(0, at) + letter + body.substring(at + 1))
                .map(s -> s + Oracle.cnpjCheckDigits(s));
    }

    /** Valid CNPJs of both kinds. */
    static Arbitrary<String> validCnpjs() {
        return Arbitraries.oneOf(validNumericCnpjs(), validAlphanumericCnpjs());
    }

    /** Surrounding whitespace, mostly none. */
    static Arbitrary<String> padding() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just("")), Tuple.of(1, Arbitraries.of(" ", "\t", "  ", "\n", " \r\n")));
    }

    /** Text that looks like a CPF or a CNPJ and often is not one: the mix the comparisons run on. */
    static Arbitrary<String> documentLikeText() {
        Arbitrary<String> cpf = validCpfs();
        Arbitrary<String> cnpj = validCnpjs();
        return Arbitraries.oneOf(
                cpf,
                cpf.map(Oracle::formatCpf),
                cnpj,
                cnpj.map(Oracle::formatCnpj),
                Combinators.combine(
                                cpf,
                                Arbitraries.integers().between(0, 10),
                                Arbitraries.chars().numeric())
                        .as(Documents::replaceAt),
                Combinators.combine(
                                cnpj,
                                Arbitraries.integers().between(0, 13),
                                Arbitraries.chars().numeric())
                        .as(Documents::replaceAt),
                Combinators.combine(cpf, Arbitraries.integers().between(0, 9))
                        .as(Documents::swapWithNext)
                        .map(Oracle::formatCpf),
                Combinators.combine(cnpj, Arbitraries.integers().between(0, 12))
                        .as(Documents::swapWithNext)
                        .map(Oracle::formatCnpj),
                Arbitraries.chars().numeric().map(c -> String.valueOf(c).repeat(11)),
                Arbitraries.chars()
                        .numeric()
                        .map(c -> Oracle.formatCpf(String.valueOf(c).repeat(11))),
                Arbitraries.chars().numeric().map(c -> String.valueOf(c).repeat(14)),
                Arbitraries.chars()
                        .numeric()
                        .map(c -> Oracle.formatCnpj(String.valueOf(c).repeat(14))),
                Combinators.combine(cpf.map(Oracle::formatCpf), Arbitraries.of(3, 7, 11))
                        .as(Documents::dropAt),
                Combinators.combine(cnpj.map(Oracle::formatCnpj), Arbitraries.of(2, 6, 10, 15))
                        .as(Documents::dropAt),
                cnpj.map(s -> s.toLowerCase(java.util.Locale.ROOT)),
                Combinators.combine(padding(), cpf, padding()).as((a, b, c) -> a + b + c),
                Combinators.combine(padding(), cnpj.map(Oracle::formatCnpj), padding())
                        .as((a, b, c) -> a + b + c),
                Arbitraries.strings().withChars("0123456789").ofMinLength(9).ofMaxLength(19),
                Arbitraries.strings()
                        .withChars("0123456789.-/ AB")
                        .ofMinLength(10)
                        .ofMaxLength(19));
    }

    static String replaceAt(String s, int at, char c) {
        return s.substring(0, at) + c + s.substring(at + 1);
    }

    static String swapWithNext(String s, int at) {
        return s.substring(0, at) + s.charAt(at + 1) + s.charAt(at) + s.substring(at + 2);
    }

    static String dropAt(String s, int at) {
        return s.substring(0, at) + s.substring(at + 1);
    }
}
