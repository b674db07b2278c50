package dev.cadastro.store.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A statement written with named parameters ({@code :account}), turned once into the {@code ?} text
 * JDBC prepares and bound by name, so a statement reads as SQL and a fragment shared by two statements
 * needs no positional offsets. A name may appear several times; each place is bound to the same value.
 *
 * <p>The text is scanned once, at class initialization: quoted literals, quoted identifiers and
 * comments are left alone (line comments are dropped), and {@code ::} is a cast, not a parameter. A
 * {@code ?} in the text is refused, as it would be taken for a parameter. Binding checks that every
 * name has a value and that no value is left over, so a typo fails the first time the statement runs.
 * The cost per execution is one array walk and a map lookup per placeholder.
 */
final class NamedSql {
    private final String sql;
    private final String[] placeholders;
    private final Set<String> names;

    private NamedSql(String sql, List<String> placeholders) {
        this.sql = sql;
        this.placeholders = placeholders.toArray(String[]::new);
        this.names = Set.copyOf(new LinkedHashSet<>(placeholders));
    }

    /** Parses {@code text}, whose parameters are {@code :name} ({@code [a-z_][a-z0-9_]*}). */
    static NamedSql of(String text) {
        StringBuilder out = new StringBuilder(text.length());
        List<String> placeholders = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char ch = text.charAt(i);
            if (ch == '\'' || ch == '"') {
                int end = text.indexOf(ch, i + 1);
                while (end > 0 && end + 1 < n && text.charAt(end + 1) == ch) { // a doubled quote
                    end = text.indexOf(ch, end + 2);
                }
                if (end < 0) {
                    throw new IllegalArgumentException("an unterminated quote at " + i + " in: " + text);
                }
                out.append(text, i, end + 1);
                i = end + 1;
            } else if (ch == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (ch == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("an unterminated comment at " + i + " in: " + text);
                }
                out.append(text, i, end + 2);
                i = end + 2;
            } else if (ch == '?') {
                throw new IllegalArgumentException("a ? in a statement with named parameters: " + text);
            } else if (ch == ':' && i + 1 < n && text.charAt(i + 1) == ':') {
                out.append("::");
                i += 2;
            } else if (ch == ':' && i + 1 < n && isNameStart(text.charAt(i + 1))) {
                int end = i + 1;
                while (end < n && isNamePart(text.charAt(end))) {
                    end++;
                }
                placeholders.add(text.substring(i + 1, end));
                out.append('?');
                i = end;
            } else {
                out.append(ch);
                i++;
            }
        }
        return new NamedSql(out.toString().strip(), placeholders);
    }

    private static boolean isNameStart(char ch) {
        return (ch >= 'a' && ch <= 'z') || ch == '_';
    }

    private static boolean isNamePart(char ch) {
        return isNameStart(ch) || (ch >= '0' && ch <= '9');
    }

    /** The text JDBC prepares, with a {@code ?} for each place a name appeared. */
    String sql() {
        return sql;
    }

    /** The distinct parameter names. */
    Set<String> names() {
        return names;
    }

    PreparedStatement prepare(Connection c) throws SQLException {
        return c.prepareStatement(sql);
    }

    /** Binds every placeholder to its name's value. */
    void bind(PreparedStatement ps, Args args) throws SQLException {
        if (args.values.size() != names.size()) {
            throw mismatch(args);
        }
        for (int i = 0; i < placeholders.length; i++) {
            String name = placeholders[i];
            Object value = args.values.get(name);
            if (value == null && !args.values.containsKey(name)) {
                throw mismatch(args);
            }
            ps.setObject(i + 1, value);
        }
    }

    private IllegalArgumentException mismatch(Args args) {
        Set<String> extra = new LinkedHashSet<>(args.values.keySet());
        extra.removeAll(names);
        Set<String> missing = new LinkedHashSet<>(names);
        missing.removeAll(args.values.keySet());
        return new IllegalArgumentException(
                "parameters missing " + missing + ", not in the statement " + extra + ": " + sql);
    }

    /** Several statements sent as one: their texts joined by {@code ;}, their names bound together. */
    static NamedSql join(NamedSql... statements) {
        StringBuilder text = new StringBuilder();
        List<String> placeholders = new ArrayList<>();
        for (NamedSql s : statements) {
            if (!text.isEmpty()) {
                text.append("; ");
            }
            text.append(s.sql);
            placeholders.addAll(List.of(s.placeholders));
        }
        return new NamedSql(text.toString(), placeholders);
    }

    /** A statement's values by name; a value may be null (SQL NULL). */
    static final class Args {
        private final Map<String, Object> values = new HashMap<>();

        Args set(String name, Object value) {
            if (values.containsKey(name)) {
                throw new IllegalArgumentException(":" + name + " set twice");
            }
            values.put(name, value);
            return this;
        }

        /** Adds all of {@code other}'s values (a shared fragment's), refusing a name set in both. */
        Args setAll(Args other) {
            other.values.forEach(this::set);
            return this;
        }
    }

    static Args args() {
        return new Args();
    }
}
