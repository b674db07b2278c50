package dev.cadastro.core.error;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A message for people, kept as a {@link Message} key and its arguments so each reader sees it in
 * its own language: the HTTP adapter renders it in the request's language, logs and the command line
 * in English ({@link #english()}).
 *
 * <p>Arguments are the values the message names (a parameter, a limit, a count); they are kept as
 * text, except a nested {@code LocalizedText}, which is rendered in the same language as its parent
 * (for example the reason inside "cpf '1' is malformed: {reason}").
 */
public record LocalizedText(Message key, List<Object> args) {
    /** Separates the key and arguments of {@link #encode()}: a control character no message contains. */
    private static final char SEPARATOR = '\u001F';

    public LocalizedText {
        Objects.requireNonNull(key, "key");
        List<Object> copy = new ArrayList<>(args.size());
        for (Object a : args) {
            copy.add(a instanceof LocalizedText t ? t : String.valueOf(a));
        }
        args = List.copyOf(copy);
    }

    /** The text in {@code locale}'s language: Portuguese unless the language is English. */
    public String render(Locale locale) {
        String pattern = Messages.pattern(key, locale);
        StringBuilder out = new StringBuilder(pattern.length() + 32);
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            int close = c == '{' ? pattern.indexOf('}', i) : -1;
            if (close > i + 1 && isIndex(pattern, i + 1, close)) {
                int index = Integer.parseInt(pattern, i + 1, close, 10);
                Object arg = args.get(index);
                out.append(arg instanceof LocalizedText t ? t.render(locale) : (String) arg);
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The English text, for logs, the command line and {@link Throwable#getMessage()}. */
    public String english() {
        return render(Locale.ENGLISH);
    }

    @Override
    public String toString() {
        return english();
    }

    /**
     * A compact, language-neutral form for storage (a failed job's message): the key and the
     * arguments, read back by {@link #decode(String)}. Nested texts are stored in English.
     */
    public String encode() {
        StringBuilder out = new StringBuilder(key.name());
        for (Object a : args) {
            out.append(SEPARATOR).append(a instanceof LocalizedText t ? t.english() : (String) a);
        }
        return out.toString();
    }

    /** The text {@link #encode()} wrote, or empty when {@code stored} is not one (an older row). */
    public static Optional<LocalizedText> decode(String stored) {
        if (stored == null) {
            return Optional.empty();
        }
        String[] parts = stored.split(String.valueOf(SEPARATOR), -1);
        Message key;
        try {
            key = Message.valueOf(parts[0]);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        List<Object> args = List.of((Object[]) java.util.Arrays.copyOfRange(parts, 1, parts.length));
        if (args.size() != Messages.placeholderCount(key)) {
            return Optional.empty();
        }
        return Optional.of(new LocalizedText(key, args));
    }

    private static boolean isIndex(String s, int from, int to) {
        if (to - from > 2) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
