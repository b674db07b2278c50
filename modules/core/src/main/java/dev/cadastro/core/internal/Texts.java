package dev.cadastro.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The small text helpers every module needs once: echoing untrusted values in messages, the
 * printable-ASCII rule of keys and references, and SHA-256. Not API: exported only to Cadastro's own
 * modules.
 */
public final class Texts {
    /** Longest excerpt of an input value repeated in a message; longer values are cut. */
    public static final int MAX_ECHO = 40;

    private Texts() {}

    /**
     * The value in single quotes for a message, cut to {@link #MAX_ECHO} characters, control
     * characters escaped as Java-style unicode escapes, so an attacker's value cannot forge log lines.
     */
    public static String quote(CharSequence value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(MAX_ECHO + 8).append('\'');
        int n = Math.min(value.length(), MAX_ECHO);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            } else {
                sb.append(c);
            }
        }
        if (value.length() > MAX_ECHO) {
            sb.append("...(").append(value.length()).append(" characters)");
        }
        return sb.append('\'').toString();
    }

    /** The index of the first character outside printable ASCII without space ({@code !} to {@code ~}), or -1. */
    public static int firstNonPrintableAscii(CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c > '~') {
                return i;
            }
        }
        return -1;
    }

    /** Whether every character is printable ASCII other than space ({@code !} to {@code ~}). */
    public static boolean isPrintableAscii(CharSequence value) {
        return firstNonPrintableAscii(value) < 0;
    }

    /** Whether the text is one or more ASCII digits {@code 0-9}: no sign, no space, no other script's digit. */
    public static boolean isAsciiDigits(CharSequence s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** SHA-256 of the bytes. */
    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** SHA-256 of the UTF-8 text, as 64 lower-case hex digits. */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * RFC 9110 5.6.2: a token (a method or a field name) is one or more tchar: letters, digits and
     * {@code !#$%&'*+-.^_`|~}.
     */
    public static boolean isHttpToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return true;
    }
}
