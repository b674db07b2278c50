package dev.cadastro.server.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Entry point of {@code ./cadastro}: dispatches to one {@link Command} by its name. */
public final class Cli {
    private final Map<String, Command> commands = new LinkedHashMap<>();

    public Cli(List<Command> commands) {
        for (Command c : commands) {
            this.commands.put(c.name(), c);
        }
    }

    /** Every command the launcher offers, in the order the help lists them. */
    public static Cli standard() {
        return new Cli(List.of(
                new ServeCommand(),
                new DemoCommand(),
                new ValidateCommand(),
                new GenerateCommand(),
                new LoadCommand(),
                new LookupCommand(),
                new SearchCommand(),
                new AdminCommand()));
    }

    public static void main(String[] args) {
        System.exit(standard().run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs one command line and returns the exit status. */
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()
                || args.get(0).equals("help")
                || args.get(0).equals("--help")
                || args.get(0).equals("-h")) {
            help(out);
            return args.isEmpty() ? 2 : 0;
        }
        Command command = commands.get(args.get(0));
        if (command == null) {
            err.println("cadastro: unknown command '" + args.get(0) + "'");
            help(err);
            return 2;
        }
        if (args.size() == 2 && (args.get(1).equals("--help") || args.get(1).equals("-h"))) {
            out.println("usage: ./cadastro " + command.name() + " " + command.summary());
            return 0;
        }
        try {
            return command.run(args.subList(1, args.size()), out, err);
        } catch (UsageException e) {
            err.println("cadastro " + command.name() + ": " + e.getMessage());
            err.println("usage: ./cadastro " + command.name() + " " + command.summary());
            return 2;
        } catch (Exception e) {
            err.println("cadastro " + command.name() + ": failed: " + e);
            return 3;
        }
    }

    private void help(PrintStream out) {
        out.println("usage: ./cadastro <command> [arguments]");
        out.println();
        out.println("commands:");
        for (Command c : commands.values()) {
            out.printf("  %-10s %s%n", c.name(), c.summary());
        }
    }
}
