package dev.cadastro.server.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of {@code ./cadastro}, on picocli (docs/adr/0018-command-line-on-picocli.md). Every
 * command answers {@code -h}/{@code --help}; a mistyped command or flag gets the nearest suggestion;
 * a failure is one line without class names ({@code --verbose} adds the trace). Exit status, the same
 * for every command: 0 done, 1 a negative answer (an invalid document, an unknown CNPJ), 2 a usage
 * error, 3 a failure.
 */
@Command(
        name = "cadastro",
        synopsisSubcommandLabel = "COMMAND",
        description = "The Cadastro command line: the company-register API, its index and its accounts.",
        versionProvider = VersionProvider.class,
        footerHeading = "%nExit status:%n",
        footer = {
            "  0 done, 1 a negative answer (an invalid document, an unknown CNPJ),",
            "  2 a usage error, 3 a failure. Run ./cadastro COMMAND --help for a command's flags."
        })
public final class Cli implements Callable<Integer> {
    /** Exit status of a command that did what it was asked. */
    public static final int DONE = 0;
    /** Exit status of a negative answer: an invalid document, a CNPJ not in the index. */
    public static final int NEGATIVE = 1;
    /** Exit status of a usage error: unknown command or flag, missing or malformed value. */
    public static final int USAGE = 2;
    /** Exit status of a failure: the database, the index or the disk did not do what was needed. */
    public static final int FAILURE = 3;

    /** A qualified class name followed by a colon, as in a wrapped exception's message. */
    private static final Pattern CLASS_PREFIX =
            Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)(?:: ?)?");

    @Mixin
    CommonOptions common;

    @Option(
            names = {"-V", "--version"},
            versionHelp = true,
            description = "Print the version of Cadastro and of the Java runtime, and exit.")
    boolean version;

    private final List<CliCommand> commands;
    private boolean verbose;
    private CommandLine cli;

    public Cli(List<CliCommand> commands) {
        this.commands = List.copyOf(commands);
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
                new AdminCommand(),
                new CallsCommand(),
                new CompletionCommand()));
    }

    public static void main(String[] args) {
        System.exit(standard().run(Arrays.asList(args), System.out, System.err));
    }

    /** Without a command: the command list, on the error stream, as a usage error. */
    @Override
    public Integer call() {
        usageOnError(cli);
        return USAGE;
    }

    static void usageOnError(CommandLine cl) {
        cl.usage(cl.getErr());
        cl.getErr().flush();
    }

    /** Runs one command line and returns the exit status. */
    public int run(List<String> args, PrintStream out, PrintStream err) {
        return commandLine(out, err).execute(args.toArray(String[]::new));
    }

    /** The command tree with its handlers, printing to these streams; tests walk its model. */
    CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(this);
        this.cli = cli;
        cli.addSubcommand("help", new HelpCommand());
        for (CliCommand c : commands) {
            cli.addSubcommand(c);
        }
        configure(cli, out, err);
        cli.registerConverter(Long.class, new WholeNumber.LongConverter());
        cli.registerConverter(Long.TYPE, new WholeNumber.LongConverter());
        cli.registerConverter(Integer.class, new WholeNumber.IntConverter());
        cli.registerConverter(Integer.TYPE, new WholeNumber.IntConverter());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExitCodeExceptionMapper(e -> FAILURE);
        cli.setExecutionStrategy(this::execute);
        cli.setParameterExceptionHandler(Cli::usageError);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failure(e, commandLine));
        return cli;
    }

    private static void configure(CommandLine cl, PrintStream out, PrintStream err) {
        if (cl.getCommand() instanceof CliCommand c) {
            c.streams(out, err);
        }
        cl.setUsageHelpWidth(100);
        cl.setAbbreviatedSubcommandsAllowed(false);
        for (CommandLine sub : cl.getSubcommands().values()) {
            configure(sub, out, err);
        }
    }

    /** Applies --log and --verbose, wherever on the line they were given, then runs the last command. */
    private int execute(ParseResult parsed) {
        CommonOptions.LogLevel level = CommonOptions.LogLevel.warning;
        for (CommandLine cl : parsed.asCommandLineList()) {
            CommonOptions options = cl.getCommand() instanceof CliCommand c
                    ? c.common
                    : cl.getCommand() instanceof Cli top ? top.common : null;
            if (options == null) {
                continue;
            }
            ParseResult own = cl.getParseResult();
            if (own != null && own.hasMatchedOption("--log")) {
                level = options.log;
            }
            verbose |= options.verbose;
        }
        Logging.apply(level);
        return new CommandLine.RunLast().execute(parsed);
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        if (e instanceof MissingParameterException) {
            // A mistyped flag leaves a required one missing: name the typo, which is the real mistake.
            List<String> unknown = unknownOptions(cl, args);
            if (!unknown.isEmpty()) {
                e = new UnmatchedArgumentException(cl, unknown);
            }
        }
        StringBuilder line = new StringBuilder(name).append(": ").append(describe(e));
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            List<String> near = suggestions(cl, u.getUnmatched().get(0));
            if (!near.isEmpty()) {
                line.append("; did you mean ").append(String.join(" or ", near)).append('?');
            }
        }
        line.append(" (./").append(name).append(" --help says more)");
        err.println(line);
        err.flush();
        return USAGE;
    }

    private static String describe(ParameterException e) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            if (first.startsWith("-")) {
                return "unknown option '" + first + "'";
            }
            return e.getCommandLine().getSubcommands().isEmpty()
                    ? "unexpected argument '" + first + "'"
                    : "unknown command '" + first + "'";
        }
        return oneLine(e);
    }

    private static List<String> suggestions(CommandLine cl, String unmatched) {
        if (!unmatched.startsWith("-")) {
            return Nearest.to(unmatched, cl.getSubcommands().keySet());
        }
        String option = unmatched.contains("=") ? unmatched.substring(0, unmatched.indexOf('=')) : unmatched;
        List<String> names = new ArrayList<>();
        for (CommandLine c = cl; c != null; c = c.getParent()) {
            c.getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
        }
        return Nearest.to(option, names);
    }

    /** Arguments that look like options but are options of neither this command nor its parents. */
    private static List<String> unknownOptions(CommandLine cl, String[] args) {
        List<String> unknown = new ArrayList<>();
        for (String arg : args) {
            if (!arg.startsWith("-") || arg.equals("-") || arg.equals("--")) {
                continue;
            }
            String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            boolean known = false;
            for (CommandLine c = cl; c != null && !known; c = c.getParent()) {
                known = c.getCommandSpec().findOption(option) != null;
            }
            if (!known) {
                unknown.add(option);
            }
        }
        return unknown;
    }

    private int failure(Exception e, CommandLine cl) {
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        if (e instanceof UsageException u) {
            return usageError(new ParameterException(cl, u.getMessage(), u), new String[] {"?"});
        }
        err.println(name + ": " + oneLine(e));
        if (verbose) {
            e.printStackTrace(err);
        }
        err.flush();
        return FAILURE;
    }

    /** The message of a failure as one line for people: no class names, no line breaks. */
    static String oneLine(Throwable e) {
        String message = e.getMessage();
        Throwable cause = e.getCause();
        while ((message == null || message.isBlank()) && cause != null) {
            message = cause.getMessage();
            cause = cause.getCause();
        }
        if (message == null || message.isBlank()) {
            return "failed unexpectedly, without a message";
        }
        String text = CLASS_PREFIX.matcher(message).replaceAll("").strip();
        return text.replaceAll("\\s*\\R\\s*", "; ");
    }
}
