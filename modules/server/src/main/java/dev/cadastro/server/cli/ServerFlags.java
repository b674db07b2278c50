package dev.cadastro.server.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code --name value} flags of {@code serve} and {@code demo}; anything else is a usage error. */
final class ServerFlags {
    private final Map<String, String> values = new LinkedHashMap<>();

    private ServerFlags() {}

    static ServerFlags parse(List<String> args, Set<String> accepted) {
        ServerFlags flags = new ServerFlags();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name;
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 2) {
                name = a.substring(2, eq);
                value = a.substring(eq + 1);
            } else if (a.startsWith("--") && a.length() > 2) {
                name = a.substring(2);
                if (i + 1 >= args.size()) {
                    throw new UsageException("--" + name + " needs a value");
                }
                value = args.get(++i);
            } else {
                throw new UsageException("unexpected argument '" + a + "'");
            }
            if (!accepted.contains(name)) {
                throw new UsageException("unknown flag --" + name + "; accepted: --" + String.join(", --", accepted));
            }
            if (flags.values.put(name, value) != null) {
                throw new UsageException("--" + name + " is given twice");
            }
        }
        return flags;
    }

    Optional<String> text(String name) {
        return Optional.ofNullable(values.get(name));
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    Optional<Path> path(String name) {
        return text(name).map(v -> {
            if (v.isBlank()) {
                throw new UsageException("--" + name + " must name a folder");
            }
            return Path.of(v);
        });
    }

    int port(String name, int defaultPort) {
        String v = values.get(name);
        if (v == null) {
            return defaultPort;
        }
        try {
            int p = Integer.parseInt(v);
            if (p < 0 || p > 65535) {
                throw new UsageException("--" + name + " " + v + " is outside 0..65535");
            }
            return p;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " '" + v + "' is not a port number");
        }
    }

    long positive(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(v.replace("_", ""));
            if (n < 1) {
                throw new UsageException("--" + name + " " + v + " must be at least 1");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " '" + v + "' is not a whole number");
        }
    }
}
