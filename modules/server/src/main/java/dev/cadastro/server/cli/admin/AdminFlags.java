package dev.cadastro.server.cli.admin;

import dev.cadastro.server.cli.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments of {@code ./cadastro admin}: positional words and {@code --name value} (or {@code
 * --name=value}) flags; a flag nobody reads is reported as unknown.
 */
public final class AdminFlags {
    private final List<String> words = new ArrayList<>();
    private final Map<String, String> values = new LinkedHashMap<>();

    private AdminFlags() {}

    /** Parses; {@code switches} are flags that take no value. */
    public static AdminFlags parse(List<String> args, Set<String> switches) {
        AdminFlags flags = new AdminFlags();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--")) {
                flags.words.add(a);
                continue;
            }
            String name;
            String value;
            int eq = a.indexOf('=');
            if (eq > 2) {
                name = a.substring(2, eq);
                value = a.substring(eq + 1);
            } else {
                name = a.substring(2);
                if (switches.contains(name)) {
                    value = "true";
                } else if (i + 1 >= args.size()) {
                    throw new UsageException("--" + name + " needs a value");
                } else {
                    value = args.get(++i);
                }
            }
            if (name.isEmpty()) {
                throw new UsageException("'--' is not a flag");
            }
            if (flags.values.put(name, value) != null) {
                throw new UsageException("--" + name + " is given twice");
            }
        }
        return flags;
    }

    public List<String> words() {
        return words;
    }

    public Optional<String> optional(String name) {
        return Optional.ofNullable(values.get(name));
    }

    public String required(String name) {
        String v = values.get(name);
        if (v == null || v.isBlank()) {
            throw new UsageException("--" + name + " is required");
        }
        return v;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public long positiveLong(String name) {
        return positive(name, required(name));
    }

    public long positiveLong(String name, long defaultValue) {
        return optional(name).map(v -> positive(name, v)).orElse(defaultValue);
    }

    private static long positive(String name, String v) {
        try {
            long n = Long.parseLong(v.strip().replace("_", ""));
            if (n < 1) {
                throw new UsageException("--" + name + " " + v + " must be at least 1");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " '" + v + "' is not a whole number");
        }
    }

    /** Fails on any flag outside {@code accepted}, naming the accepted ones. */
    public void requireOnly(Set<String> accepted) {
        for (String name : values.keySet()) {
            if (!accepted.contains(name)) {
                throw new UsageException(
                        "unknown flag --" + name + "; accepted here: --" + String.join(", --", accepted));
            }
        }
    }
}
