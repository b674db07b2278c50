package dev.cadastro.core.register;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words of a company or trade name as name search ({@code busca_textual}) sees them, the same for
 * the index and for the query: the text folded to upper-case ASCII (accents dropped, {@code Ç} is
 * {@code C}, a few letters without a decomposition spelled out: {@code Æ} is {@code AE}), cut into the
 * runs of letters and digits between any other characters ({@code AUTO-PEÇAS} is {@code AUTO} and
 * {@code PECAS}; {@code S/A} is {@code S} and {@code A}).
 *
 * <p>Ignored on both sides: the {@link #STOP_WORDS}, words of one character and words of digits only
 * (in names those are mostly the owner's CPF, which MEIs put in their company name: a key, not a word
 * anybody searches, and one unique term per MEI in the index).
 */
public final class NameWords {
    /**
     * Legal-form suffixes and their abbreviations (present in most company names, so they narrow
     * nothing) and the Portuguese articles, prepositions and contractions that join name words.
     */
    public static final Set<String> STOP_WORDS = Set.of(
            // legal forms and sizes
            "LTDA",
            "ME",
            "EPP",
            "EIRELI",
            "SA",
            "SS",
            "MEI",
            "CIA",
            // articles, prepositions and their contractions
            "DE",
            "DA",
            "DO",
            "DAS",
            "DOS",
            "DI",
            "DU",
            "EM",
            "NA",
            "NO",
            "NAS",
            "NOS",
            "OS",
            "AS",
            "AO",
            "AOS",
            "PARA",
            "POR");

    private NameWords() {}

    /** Every word of {@code text} in order, folded, repeats kept, nothing ignored. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        // Names in the Receita's files are mostly upper-case ASCII already: no decomposition to pay for.
        String d = isAscii(text) ? text : Normalizer.normalize(text, Normalizer.Form.NFD);
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (Character.getType(c) == Character.NON_SPACING_MARK) {
                continue;
            }
            String folded = fold(c);
            if (folded != null) {
                word.append(folded);
            } else if (!word.isEmpty()) {
                out.add(word.toString());
                word.setLength(0);
            }
        }
        if (!word.isEmpty()) {
            out.add(word.toString());
        }
        return out;
    }

    /** Whether name search ignores {@code word} (a folded word): a stop-word, one character, or digits only. */
    public static boolean ignored(String word) {
        return word.length() < 2 || STOP_WORDS.contains(word) || digitsOnly(word);
    }

    /** The distinct words the index holds for these names: {@link #split} minus the {@link #ignored} ones. */
    public static Set<String> indexed(String... names) {
        Set<String> out = new LinkedHashSet<>();
        for (String name : names) {
            for (String w : split(name)) {
                if (!ignored(w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean digitsOnly(String w) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The folded form of one character of an NFD text, or null when it separates words. */
    private static String fold(char c) {
        if (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return String.valueOf(c);
        }
        if (c >= 'a' && c <= 'z') {
            return String.valueOf((char) (c - 32));
        }
        if (c < 0x80 || !Character.isLetterOrDigit(c)) {
            return null;
        }
        return switch (Character.toUpperCase(c)) {
            case 'Æ' -> "AE";
            case 'Œ' -> "OE";
            case 'Ø' -> "O";
            case 'Ð' -> "D";
            case 'Þ' -> "TH";
            case 'Ł' -> "L";
            case 'ß', 'ẞ' -> "SS";
            case 'ı' -> "I";
            default -> {
                // Other scripts and non-ASCII digits: kept as their upper case, so they still match themselves.
                char u = Character.toUpperCase(c);
                yield Character.isDigit(u) && Character.getNumericValue(u) >= 0 && Character.getNumericValue(u) <= 9
                        ? String.valueOf((char) ('0' + Character.getNumericValue(u)))
                        : String.valueOf(u);
            }
        };
    }
}
