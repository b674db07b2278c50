package dev.cadastro.core.document;

/** Small helpers for messages about untrusted text. */
final class Text {
    /** Longest excerpt of an input value repeated in a message; longer values are cut. */
    static final int MAX_ECHO = 40;

    private Text() {}

    /** The value in single quotes, cut to {@link #MAX_ECHO} characters, control characters escaped. */
    static String quote(CharSequence value) {
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

    static int firstNonBlank(CharSequence s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    static int lastNonBlank(CharSequence s) {
        int i = s.length();
        while (i > 0 && Character.isWhitespace(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }
}
