package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code docs/cli.md} and {@code docs/configuration.md} cover every command and flag that {@code --help}
 * prints. The test walks the picocli model of {@link Cli#standard()} (every command and subcommand, every
 * named option, mixed-in ones included: {@code --log}, {@code --verbose}, {@code --help}, the store flags)
 * and asks for:
 *
 * <ul>
 *   <li>a section of {@code docs/cli.md} per command, headed by its name in backticks ({@code ## `serve`},
 *       {@code ### `admin top-up`}; the root command's section is "Global options"), which names each of
 *       the command's flags in backticks ({@code `--port`}, {@code `--port P`}) and each of its
 *       arguments by its label ({@code `CNPJ`}, {@code `DOC...`}); the section runs to the next heading
 *       of any level. The {@code help} subcommand picocli adds under each group is one
 *       command, documented once at the top level;
 *   <li>every flag of {@code serve} and {@code demo}, and {@code admin}'s own (the store it works on), in
 *       {@code docs/configuration.md};
 *   <li>every environment variable the server reads (a {@code System.getenv("NAME")} or an {@code ENV =
 *       "NAME"} constant in its sources) and every {@code CADASTRO_*} variable or {@code JAVA_HOME} the
 *       launcher reads, in {@code docs/configuration.md}.
 * </ul>
 */
class CliDocsTest {
    /** The commands whose every flag configures a running server or names its store. */
    private static final Set<String> CONFIGURATION_COMMANDS = Set.of("serve", "demo", "admin");

    @Test
    void cliMdHasASectionForEveryCommandNamingEachOfItsFlags() throws IOException {
        String doc = read("docs/cli.md");
        List<String> missing = missingFromCliDoc(commandTree(), doc);
        assertEquals(List.of(), missing, "docs/cli.md lacks these (add them, in backticks, to the command's section)");
    }

    @Test
    void configurationMdNamesEveryFlagOfTheServerAndTheStore() throws IOException {
        String doc = read("docs/configuration.md");
        List<String> missing = missingFromConfigurationDoc(commandTree(), doc);
        assertEquals(List.of(), missing, "docs/configuration.md lacks these flags (name them in backticks)");
    }

    @Test
    void configurationMdNamesEveryEnvironmentVariableTheServerReads() throws IOException {
        Set<String> variables = environmentVariables();
        assertTrue(
                variables.containsAll(Set.of("CADASTRO_OTP_KEYS", "CADASTRO_CALLS_KEYS", "CADASTRO_JAVA_OPTS")),
                "the scan finds the variables known to be read: " + variables);
        String doc = read("docs/configuration.md");
        List<String> missing = new ArrayList<>();
        for (String variable : variables) {
            if (!mentioned(doc, variable)) {
                missing.add(variable);
            }
        }
        assertEquals(List.of(), missing, "docs/configuration.md lacks these environment variables");
    }

    /** The checks find what is missing: a flag taken out of its section, a section taken out, a variable. */
    @Test
    void theChecksNoticeAFlagOrASectionThatIsRemoved() throws IOException {
        CommandLine tree = commandTree();
        String cli = read("docs/cli.md");
        String configuration = read("docs/configuration.md");

        String withoutRefresh = cli.replace("`--calls-refresh", "`--calls-REMOVED");
        List<String> missing = missingFromCliDoc(tree, withoutRefresh);
        assertTrue(missing.contains("serve: `--calls-refresh`"), missing.toString());
        assertTrue(missing.contains("demo: `--calls-refresh`"), missing.toString());

        String withoutCnpj = cli.replace("| `CNPJ` |", "| CNPJ |");
        assertTrue(missingFromCliDoc(tree, withoutCnpj).contains("lookup: argument `CNPJ`"), "a removed argument");

        String withoutTopUp = cli.replaceAll("(?m)^(#+) `admin top-up`.*$", "$1 top up");
        assertTrue(
                missingFromCliDoc(tree, withoutTopUp).contains("admin top-up: no section headed `admin top-up`"),
                "a removed section is reported");

        List<String> missingConfiguration =
                missingFromConfigurationDoc(tree, configuration.replace("`--create-db", "`--REMOVED"));
        assertEquals(List.of("admin: `--create-db`"), missingConfiguration);

        assertTrue(mentioned(configuration, "CADASTRO_OTP_KEYS"));
        assertTrue(!mentioned(configuration.replace("`CADASTRO_OTP_KEYS", "`REMOVED"), "CADASTRO_OTP_KEYS"));
    }

    private static List<String> missingFromCliDoc(CommandLine tree, String doc) {
        Map<String, String> sections = sections(doc);
        List<String> missing = new ArrayList<>();
        for (CommandSpec command : commands(tree)) {
            String path = path(command);
            String heading = path.isEmpty() ? "Global options" : "`" + path + "`";
            String section = sections.get(heading);
            String name = path.isEmpty() ? "cadastro" : path;
            if (section == null) {
                missing.add(name + ": no section headed " + heading);
                continue;
            }
            for (String flag : flags(command)) {
                if (!mentioned(section, flag)) {
                    missing.add(name + ": `" + flag + "`");
                }
            }
            for (PositionalParamSpec parameter : command.positionalParameters()) {
                String label = parameter.paramLabel().replaceAll("^<(.*)>$", "$1");
                if (!Pattern.compile("`" + Pattern.quote(label) + "(?=[`\\s.\\[])")
                        .matcher(section)
                        .find()) {
                    missing.add(name + ": argument `" + label + "`");
                }
            }
        }
        return missing;
    }

    private static List<String> missingFromConfigurationDoc(CommandLine tree, String doc) {
        List<String> missing = new ArrayList<>();
        for (CommandSpec command : commands(tree)) {
            String path = path(command);
            if (!CONFIGURATION_COMMANDS.contains(path)) {
                continue;
            }
            for (OptionSpec option : command.options()) {
                if (option.usageHelp() || option.versionHelp()) {
                    continue;
                }
                for (String flag : names(option)) {
                    if (!mentioned(doc, flag)) {
                        missing.add(path + ": `" + flag + "`");
                    }
                }
            }
        }
        return missing;
    }

    /** The name in backticks, at the start of a code span: {@code `--port`}, {@code `--port P`}, {@code `--port=P`}. */
    private static boolean mentioned(String text, String name) {
        return Pattern.compile("`" + Pattern.quote(name) + "(?=[`\\s=\\[])")
                .matcher(text)
                .find();
    }

    /** Every command once, depth first, the {@code help} subcommands of the groups left out. */
    private static List<CommandSpec> commands(CommandLine tree) {
        List<CommandSpec> all = new ArrayList<>();
        walk(tree, all);
        assertTrue(all.size() > 40, "the walk found the command tree: " + all.size());
        return all;
    }

    private static void walk(CommandLine cl, List<CommandSpec> all) {
        CommandSpec spec = cl.getCommandSpec();
        if (all.contains(spec)) {
            return;
        }
        boolean nestedHelp =
                cl.getCommand() instanceof HelpCommand && cl.getParent().getParent() != null;
        if (nestedHelp) {
            return;
        }
        all.add(spec);
        for (CommandLine sub : cl.getSubcommands().values()) {
            walk(sub, all);
        }
    }

    /** The command's path below {@code cadastro}: "", "serve", "admin calls-token create". */
    private static String path(CommandSpec command) {
        String qualified = command.qualifiedName(" ");
        return qualified.equals("cadastro") ? "" : qualified.substring("cadastro ".length());
    }

    /** Every flag a command accepts, by each of its long names (a short name only when it has no long one). */
    private static List<String> flags(CommandSpec command) {
        List<String> flags = new ArrayList<>();
        for (OptionSpec option : command.options()) {
            flags.addAll(names(option));
        }
        return flags;
    }

    private static List<String> names(OptionSpec option) {
        List<String> longNames =
                Stream.of(option.names()).filter(n -> n.startsWith("--")).toList();
        return longNames.isEmpty() ? List.of(option.longestName()) : longNames;
    }

    /** Each heading's text mapped to what follows it up to the next heading; fenced code is not read for headings. */
    private static Map<String, String> sections(String doc) {
        Map<String, String> sections = new LinkedHashMap<>();
        Pattern heading = Pattern.compile("^#{1,6} (.+?)\\s*$");
        String current = null;
        StringBuilder body = new StringBuilder();
        boolean fenced = false;
        for (String line : doc.split("\n", -1)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            Matcher m = heading.matcher(line);
            if (!fenced && m.matches()) {
                if (current != null) {
                    sections.merge(current, body.toString(), String::concat);
                }
                current = headingKey(m.group(1));
                body = new StringBuilder();
            } else {
                body.append(line).append('\n');
            }
        }
        if (current != null) {
            sections.merge(current, body.toString(), String::concat);
        }
        return sections;
    }

    /** A heading "`admin top-up`: add credits" is keyed by its leading code span, else by its whole text. */
    private static String headingKey(String text) {
        Matcher code = Pattern.compile("^(`[^`]+`)").matcher(text);
        return code.find() ? code.group(1) : text;
    }

    private static Set<String> environmentVariables() throws IOException {
        Path root = repositoryRoot();
        Set<String> variables = new TreeSet<>();
        Pattern read = Pattern.compile("getenv\\(\"([A-Z][A-Z0-9_]*)\"\\)|\\bENV\\w*\\s*=\\s*\"([A-Z][A-Z0-9_]*)\"");
        List<Path> sources;
        try (Stream<Path> files = Files.walk(root.resolve("modules/server/src/main/java"))) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path source : sources) {
            Matcher m = read.matcher(Files.readString(source, StandardCharsets.UTF_8));
            while (m.find()) {
                variables.add(m.group(1) != null ? m.group(1) : m.group(2));
            }
        }
        Pattern launcher = Pattern.compile("\\$\\{?(CADASTRO_[A-Z0-9_]+|JAVA_HOME)\\b");
        for (String script : List.of("cadastro", ".mvn/find-jdk.sh")) {
            Matcher m = launcher.matcher(Files.readString(root.resolve(script), StandardCharsets.UTF_8));
            while (m.find()) {
                variables.add(m.group(1));
            }
        }
        return variables;
    }

    private static CommandLine commandTree() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Cli.standard().commandLine(quiet, quiet);
    }

    private static String read(String relative) throws IOException {
        Path file = repositoryRoot().resolve(relative);
        assertTrue(Files.exists(file), relative + " exists");
        return Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("mvnw")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "the repository root is above " + Path.of("").toAbsolutePath());
        return dir;
    }
}
