package dev.cadastro.register.publication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's {@code CURRENT} object: the generation followers serve and the SHA-256 of its manifest.
 * Written last by a publication, so it never names a generation whose files are not all in the store.
 */
record Pointer(long generation, String manifestSha256) {
    /** The largest generation number a follower reads (18 digits, as {@code gen-<n>} folders allow). */
    static final long MAX_GENERATION = 999_999_999_999_999_999L;

    private static final Pattern TEXT = Pattern.compile("generation=(\\d{1,18})\nmanifestSha256=([0-9a-f]{64})\n?");

    String render() {
        return "generation=" + generation + "\nmanifestSha256=" + manifestSha256 + "\n";
    }

    byte[] bytes() {
        return render().getBytes(StandardCharsets.UTF_8);
    }

    static Pointer parse(String text, String where) throws IOException {
        Matcher m = TEXT.matcher(text);
        if (!m.matches()) {
            throw new IOException(where + " is not 'generation=N' then 'manifestSha256=HEX'");
        }
        return new Pointer(Long.parseLong(m.group(1)), m.group(2));
    }
}
