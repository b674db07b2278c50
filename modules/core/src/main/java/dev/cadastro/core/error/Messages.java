package dev.cadastro.core.error;

import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message bundles, one per language: {@code messages_pt_BR.properties} (the default) and {@code
 * messages_en.properties}, UTF-8, beside this class in the core module.
 */
public final class Messages {
    /** Brazilian Portuguese: the language of every message unless the client asks for English. */
    public static final Locale PORTUGUESE = Locale.of("pt", "BR");

    /** The languages messages are written in, the default first. */
    public static final List<Locale> SUPPORTED = List.of(PORTUGUESE, Locale.ENGLISH);

    private static final String BASE = "dev.cadastro.core.error.messages";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d{1,2})}");

    private static final ResourceBundle PT = ResourceBundle.getBundle(BASE, PORTUGUESE);
    private static final ResourceBundle EN = ResourceBundle.getBundle(BASE, Locale.ENGLISH);

    private Messages() {}

    /** The bundle a locale reads: English for any English locale, Portuguese for every other. */
    public static ResourceBundle bundle(Locale locale) {
        return isEnglish(locale) ? EN : PT;
    }

    /** Whether {@code locale} is one of the supported languages' English. */
    public static boolean isEnglish(Locale locale) {
        return locale != null && "en".equals(locale.getLanguage());
    }

    /** The language a locale is answered in: {@link Locale#ENGLISH} or {@link #PORTUGUESE}. */
    public static Locale answered(Locale locale) {
        return isEnglish(locale) ? Locale.ENGLISH : PORTUGUESE;
    }

    static String pattern(Message key, Locale locale) {
        try {
            return bundle(locale).getString(key.name());
        } catch (MissingResourceException e) {
            // The completeness test keeps this from happening; never fail a request over a message.
            return key.name();
        }
    }

    /** The placeholder indexes ({@code {0}}, {@code {1}}) a pattern uses. */
    public static Set<Integer> placeholders(String pattern) {
        Set<Integer> out = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }

    static int placeholderCount(Message key) {
        return placeholders(pattern(key, Locale.ENGLISH)).size();
    }
}
