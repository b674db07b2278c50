package dev.cadastro.http;

/** Renders untrusted text for an error message: quoted, control characters escaped, long text cut. */
final class Shown {
    static final int MAX = 64;

    private Shown() {}

    static String quote(CharSequence s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX) + 8).append('\'');
        int n = Math.min(s.length(), MAX);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('\'');
        if (s.length() > MAX) {
            b.append(" (")
                    .append(s.length())
                    .append(" characters, first ")
                    .append(MAX)
                    .append(" shown)");
        }
        return b.toString();
    }
}
