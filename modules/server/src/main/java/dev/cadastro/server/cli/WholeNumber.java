package dev.cadastro.server.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one rule for whole numbers on the command line: decimal digits with an optional leading minus,
 * and {@code _} between digits to group them ({@code 1_000_000}). No {@code +}, no {@code 0x}, no
 * octal, no spaces: what is not plainly a number is a usage error naming the value.
 */
public final class WholeNumber {
    private WholeNumber() {}

    static long parse(String text) {
        if (text == null || !text.matches("-?[0-9]+(_[0-9]+)*")) {
            throw new TypeConversionException(
                    "'" + text + "' is not a whole number (digits, optionally grouped with _, as in 1_000_000)");
        }
        try {
            return Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is out of range for a whole number");
        }
    }

    public static final class LongConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parse(value);
        }
    }

    static final class IntConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = parse(value);
            if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                throw new TypeConversionException("'" + value + "' is out of range");
            }
            return (int) n;
        }
    }
}
