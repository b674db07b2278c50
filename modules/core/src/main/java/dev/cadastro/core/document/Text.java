package dev.cadastro.core.document;

/** Small helpers for untrusted text. */
final class Text {
    private Text() {}

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
