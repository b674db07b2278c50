package dev.cadastro.core.internal;

import dev.cadastro.core.provider.Allowlist;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * One object of a provider's answer tree being read into a typed record: each accessor checks one
 * field's presence, type and rule and throws {@link MalformedAnswerException} naming the path and the
 * rule, never the value. A key present with a null value counts as absent.
 */
public final class AnswerNode {
    private static final System.Logger LOG = System.getLogger("dev.cadastro.core.provider.answers");

    private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    private final Map<?, ?> map;
    private final String path;

    private AnswerNode(Map<?, ?> map, String path) {
        this.map = map;
        this.path = path;
    }

    /**
     * The root object of a raw answer after the allowlist: what the list does not name is dropped, and
     * how many fields were dropped is logged at debug with their paths, never their values (they may
     * be personal data).
     *
     * @param what names the answer in the log line, e.g. {@code "bureau answer"}
     */
    public static AnswerNode allowed(Map<String, ?> tree, Allowlist allowlist, String what) {
        if (tree == null) {
            throw new MalformedAnswerException("$", "the answer must be an object");
        }
        Allowlist.Filtered filtered = allowlist.filterCounting(tree);
        if (filtered.dropped() > 0 && LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    String.format(
                            Locale.ROOT,
                            "%s: dropped %d fields outside the allowlist: %s",
                            what,
                            filtered.dropped(),
                            filtered.droppedPaths()));
        }
        return root(filtered.tree());
    }

    /** The root object of an answer. */
    public static AnswerNode root(Map<String, ?> tree) {
        if (tree == null) {
            throw new MalformedAnswerException("$", "the answer must be an object");
        }
        return new AnswerNode(tree, "");
    }

    /** The path of a key of this object, {@code socios[2].cpf}. */
    public String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Whether the key is present with a value other than null. */
    public boolean has(String key) {
        return map.get(key) != null;
    }

    private Object raw(String key, boolean required) {
        Object value = map.get(key);
        if (value == null && required) {
            throw new MalformedAnswerException(pathOf(key), "is required");
        }
        return value;
    }

    /** A string, or null when absent and not required. */
    public String string(String key, boolean required) {
        return typed(key, required, String.class, "must be a string");
    }

    /** A non-blank string that matches the pattern; the rule names the expected shape. */
    public String string(String key, boolean required, Pattern pattern, String rule) {
        String s = string(key, required);
        if (s != null && !pattern.matcher(s).matches()) {
            throw new MalformedAnswerException(pathOf(key), rule);
        }
        return s;
    }

    /** A string that passes the check; the rule names it. */
    public String string(String key, boolean required, Predicate<String> check, String rule) {
        String s = string(key, required);
        if (s != null && !check.test(s)) {
            throw new MalformedAnswerException(pathOf(key), rule);
        }
        return s;
    }

    /** A non-blank string. */
    public String text(String key, boolean required) {
        String s = string(key, required);
        if (s != null && s.isBlank()) {
            throw new MalformedAnswerException(pathOf(key), "must not be blank");
        }
        return s;
    }

    /** One of the given values. */
    public String oneOf(String key, boolean required, Set<String> values) {
        String s = string(key, required);
        if (s != null && !values.contains(s)) {
            throw new MalformedAnswerException(pathOf(key), "must be one of " + new java.util.TreeSet<>(values));
        }
        return s;
    }

    /** An ISO date {@code yyyy-MM-dd}. */
    public LocalDate date(String key, boolean required) {
        String s = string(key, required);
        if (s == null) {
            return null;
        }
        if (!ISO_DATE.matcher(s).matches()) {
            throw new MalformedAnswerException(pathOf(key), "must be an ISO date yyyy-MM-dd");
        }
        try {
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw new MalformedAnswerException(pathOf(key), "must be an ISO date yyyy-MM-dd that exists");
        }
    }

    /** A boolean, or null when absent and not required. */
    public Boolean bool(String key, boolean required) {
        return typed(key, required, Boolean.class, "must be a boolean");
    }

    /** A required whole number in {@code [min, max]}. */
    public int integer(String key, int min, int max) {
        Object value = raw(key, true);
        BigDecimal d = number(key, value);
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            throw new MalformedAnswerException(pathOf(key), "must be a whole number");
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new MalformedAnswerException(pathOf(key), "must be between " + min + " and " + max);
        }
        return d.intValue();
    }

    /**
     * A decimal in {@code [min, max]} with at most {@code maxScale} decimals, or null when absent and
     * not required. A {@link BigDecimal} is returned as it came, so a round trip keeps its scale.
     */
    public BigDecimal decimal(String key, boolean required, BigDecimal min, BigDecimal max, int maxScale) {
        Object value = raw(key, required);
        if (value == null) {
            return null;
        }
        BigDecimal d = number(key, value);
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new MalformedAnswerException(
                    pathOf(key), "must be between " + min.toPlainString() + " and " + max.toPlainString());
        }
        if (d.stripTrailingZeros().scale() > maxScale) {
            throw new MalformedAnswerException(pathOf(key), "must have at most " + maxScale + " decimals");
        }
        return d;
    }

    private BigDecimal number(String key, Object value) {
        return switch (value) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Integer i -> BigDecimal.valueOf(i);
            case Long l -> BigDecimal.valueOf(l);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case Double d when Double.isFinite(d) -> BigDecimal.valueOf(d);
            case Float f when Float.isFinite(f) -> new BigDecimal(f.toString());
            default -> throw new MalformedAnswerException(pathOf(key), "must be a number");
        };
    }

    /** A nested object, or null when absent and not required. */
    public AnswerNode object(String key, boolean required) {
        Map<?, ?> m = typed(key, required, Map.class, "must be an object");
        return m == null ? null : new AnswerNode(m, pathOf(key));
    }

    /** The value of {@code key} as a {@code type}, or null when absent and not required; the rule names the type. */
    private <T> T typed(String key, boolean required, Class<T> type, String rule) {
        Object value = raw(key, required);
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw new MalformedAnswerException(pathOf(key), rule);
        }
        return type.cast(value);
    }

    /** Reads each node of a list of objects into a value, in order. */
    public static <T> List<T> each(List<AnswerNode> nodes, java.util.function.Function<AnswerNode, T> read) {
        List<T> out = new ArrayList<>(nodes.size());
        for (AnswerNode n : nodes) {
            out.add(read.apply(n));
        }
        return out;
    }

    /** A required list of objects (possibly empty). */
    public List<AnswerNode> objects(String key) {
        Object value = raw(key, true);
        if (!(value instanceof List<?> list)) {
            throw new MalformedAnswerException(pathOf(key), "must be a list");
        }
        List<AnswerNode> nodes = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String at = pathOf(key) + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new MalformedAnswerException(at, "must be an object");
            }
            nodes.add(new AnswerNode(m, at));
        }
        return nodes;
    }

    /** Fails for this object's key with the rule. */
    public MalformedAnswerException malformed(String key, String rule) {
        return new MalformedAnswerException(pathOf(key), rule);
    }
}
