package dev.cadastro.http;

import dev.cadastro.core.error.Messages;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The language of an answer's messages, from the request's {@code Accept-Language} (RFC 9110, section
 * 12.5.4): English when the client prefers English ({@code en}, {@code en-US}, ...) over Portuguese,
 * Brazilian Portuguese otherwise. Quality values are honoured ({@code pt-BR;q=0.9, en;q=0.8} is
 * Portuguese, {@code fr, en;q=0.5} English, {@code en;q=0} never English); {@code *} stands for the
 * default. A malformed element is skipped and a header that is all garbage, absent or oversized gives
 * the default: this never fails a request.
 */
public final class AcceptLanguage {
    /** The header this reads. */
    public static final String HEADER = "Accept-Language";

    private static final int MAX_LENGTH = 1024;
    private static final Pattern RANGE = Pattern.compile("\\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*");
    private static final Pattern QUALITY = Pattern.compile("[qQ]=(0(\\.[0-9]{0,3})?|1(\\.0{0,3})?)");

    private AcceptLanguage() {}

    /** The language for the header's values (all lines of the field, in order). */
    public static Locale resolve(List<String> values) {
        if (values == null || values.isEmpty()) {
            return Messages.PORTUGUESE;
        }
        String header = String.join(",", values);
        if (header.length() > MAX_LENGTH) {
            return Messages.PORTUGUESE;
        }
        Locale best = Messages.PORTUGUESE;
        int bestQuality = 0;
        for (String element : header.split(",", -1)) {
            String[] parts = element.split(";", -1);
            String range = parts[0].strip();
            if (!RANGE.matcher(range).matches()) {
                continue;
            }
            int quality = 1000;
            boolean malformed = false;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].strip();
                if (QUALITY.matcher(parameter).matches()) {
                    quality = thousandths(parameter.substring(2));
                } else {
                    malformed = true;
                }
            }
            Locale language = language(range);
            // Strictly greater: among equal qualities the first listed wins, as the client wrote them.
            if (!malformed && language != null && quality > bestQuality) {
                best = language;
                bestQuality = quality;
            }
        }
        return best;
    }

    /** The language for one header value. */
    public static Locale resolve(String value) {
        return resolve(value == null ? List.of() : List.of(value));
    }

    private static Locale language(String range) {
        if (range.equals("*")) {
            return Messages.PORTUGUESE;
        }
        int dash = range.indexOf('-');
        String primary = (dash < 0 ? range : range.substring(0, dash)).toLowerCase(Locale.ROOT);
        return switch (primary) {
            case "en" -> Locale.ENGLISH;
            case "pt" -> Messages.PORTUGUESE;
            default -> null;
        };
    }

    private static int thousandths(String q) {
        String[] p = q.split("\\.", -1);
        int whole = Integer.parseInt(p[0]) * 1000;
        if (p.length < 2 || p[1].isEmpty()) {
            return whole;
        }
        String frac = (p[1] + "000").substring(0, 3);
        return whole + Integer.parseInt(frac);
    }
}
