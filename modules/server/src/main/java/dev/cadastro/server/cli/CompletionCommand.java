package dev.cadastro.server.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/** {@code ./cadastro completion}: a bash (and zsh, through bashcompinit) completion script. */
@Command(
        name = "completion",
        description = {
            "Print a bash completion script for every command, subcommand and flag.",
            "Load it with: source <(./cadastro completion)"
        })
public final class CompletionCommand extends CliCommand {
    @Override
    public Integer call() {
        String script = AutoComplete.bash("cadastro", spec.parent().commandLine());
        out().print(script);
        // Also complete the launcher as it is usually typed, from the repository root.
        out().println("complete -F _complete_cadastro -o default ./cadastro");
        out().flush();
        return 0;
    }
}
