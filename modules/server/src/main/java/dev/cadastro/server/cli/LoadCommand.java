package dev.cadastro.server.cli;

import dev.cadastro.loader.DumpLoader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.LoaderException;
import dev.cadastro.loader.Progress;
import dev.cadastro.loader.StructuralFaultException;
import dev.cadastro.register.BuildOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code ./cadastro load --dump DIR --index DIR [--debt DIR]}: loads a monthly dump into a new
 * generation of the register index and publishes it atomically. A progress bar on a terminal, a log
 * line every ten seconds otherwise; the summary at the end.
 */
public final class LoadCommand implements Command {
    @Override
    public String name() {
        return "load";
    }

    @Override
    public String summary() {
        return "--dump DIR --index DIR [--debt DIR] [--rejects FILE] [--threads N] [--ram-buffer-mb M] [--segments N]"
                + "  load a Receita Federal dump into a new register index";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        Flags flags = Flags.parse(
                args, Set.of("dump", "index", "debt", "rejects", "threads", "ram-buffer-mb", "segments", "scratch"), 0);
        Path dump = flags.path("dump", true);
        Path index = flags.path("index", true);
        boolean terminal = isTerminal();
        LoadOptions.Builder builder = LoadOptions.builder(dump)
                .debt(flags.path("debt", false))
                .rejects(flags.path("rejects", false))
                .scratch(flags.path("scratch", false))
                .progress(
                        terminal ? bar(err) : logLine(err), terminal ? Duration.ofMillis(500) : Duration.ofSeconds(10));
        if (flags.has("threads")) {
            builder.indexThreads(flags.integer("threads", 1, 64));
        }
        LoadOptions options;
        try {
            options = builder.build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        BuildOptions.Builder build = BuildOptions.builder().indexingThreads(options.indexThreads());
        if (flags.has("ram-buffer-mb")) {
            build.ramBufferMb(flags.integer("ram-buffer-mb", 16, 2048));
        }
        if (flags.has("segments")) {
            build.maxSegments(flags.integer("segments", 0, 1024));
        }
        try {
            DumpLoader.Result result = DumpLoader.load(options, index, build.build());
            if (terminal) {
                err.println();
            }
            out.print(result.summary().render());
            return 0;
        } catch (StructuralFaultException e) {
            if (terminal) {
                err.println();
            }
            err.println("cadastro load: the dump is unusable, nothing was published: " + e.getMessage());
            return 3;
        } catch (LoaderException e) {
            if (terminal) {
                err.println();
            }
            err.println("cadastro load: the load failed, nothing was published: " + e.getMessage());
            return 3;
        }
    }

    private static boolean isTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // JDK 22+ returns a console even when redirected; it then says whether it is a terminal.
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    private static Consumer<Progress> bar(PrintStream err) {
        return p -> {
            int width = 30;
            int filled = (int) Math.round(p.fraction() * width);
            err.print(String.format(
                    Locale.ROOT,
                    "\r[%s%s] %5.1f%%  %-16s %,12d est  %,9.0f est/s  ETA %s   ",
                    "#".repeat(filled),
                    ".".repeat(width - filled),
                    p.fraction() * 100,
                    p.phase(),
                    p.establishments(),
                    p.establishmentsPerSecond(),
                    eta(p)));
            err.flush();
        };
    }

    private static Consumer<Progress> logLine(PrintStream err) {
        return p -> err.println(String.format(
                Locale.ROOT,
                "cadastro load: %.1f%% %s, %,d establishments, %,.0f establishments/s, elapsed %s, ETA %s",
                p.fraction() * 100,
                p.phase(),
                p.establishments(),
                p.establishmentsPerSecond(),
                duration(p.elapsed()),
                eta(p)));
    }

    private static String eta(Progress p) {
        Duration eta = p.eta();
        return eta == null ? "--" : duration(eta);
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600
                ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s / 60) % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    /** {@code --name value} flags and positional arguments of the loader commands. */
    static final class Flags {
        private final Map<String, String> values = new LinkedHashMap<>();
        final List<String> positional = new ArrayList<>();

        static Flags parse(List<String> args, Set<String> accepted, int maxPositional) {
            Flags flags = new Flags();
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (!a.startsWith("--")) {
                    if (flags.positional.size() >= maxPositional) {
                        throw new UsageException("unexpected argument '" + a + "'");
                    }
                    flags.positional.add(a);
                    continue;
                }
                int eq = a.indexOf('=');
                String name = eq > 2 ? a.substring(2, eq) : a.substring(2);
                String value;
                if (eq > 2) {
                    value = a.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException("--" + name + " needs a value");
                }
                if (!accepted.contains(name)) {
                    throw new UsageException("unknown flag --" + name + "; accepted: --"
                            + String.join(", --", accepted.stream().sorted().toList()));
                }
                if (flags.values.put(name, value) != null) {
                    throw new UsageException("--" + name + " is given twice");
                }
            }
            return flags;
        }

        boolean has(String name) {
            return values.containsKey(name);
        }

        Path path(String name, boolean required) {
            String v = values.get(name);
            if (v == null || v.isBlank()) {
                if (required) {
                    throw new UsageException("--" + name + " is required");
                }
                return null;
            }
            return Path.of(v);
        }

        long number(String name, long min, long max) {
            String v = values.get(name);
            long n;
            try {
                n = Long.parseLong(v.replace("_", ""));
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " " + v + " is not a whole number");
            }
            if (n < min || n > max) {
                throw new UsageException("--" + name + " " + n + " must be between " + min + " and " + max);
            }
            return n;
        }

        int integer(String name, int min, int max) {
            return (int) number(name, min, max);
        }

        String text(String name) {
            return values.get(name);
        }
    }
}
