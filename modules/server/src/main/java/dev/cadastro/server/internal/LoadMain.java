package dev.cadastro.server.internal;

import dev.cadastro.loader.LoadOptions;
import dev.cadastro.server.DumpLoader;
import java.nio.file.Path;

/**
 * A bare entry point for a load into the register index, without the command line's start-up:
 * {@code java -m dev.cadastro.server/dev.cadastro.server.internal.LoadMain DUMP INDEX REJECTS [DEBT]}.
 * The kill tests run it as a child process; operators use {@code ./cadastro load}. The reader alone
 * (no index) is {@code dev.cadastro.loader.internal.ReadMain}.
 */
public final class LoadMain {
    private LoadMain() {}

    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: LoadMain DUMP INDEX REJECTS [DEBT]");
            System.exit(2);
        }
        LoadOptions options = LoadOptions.builder(Path.of(args[0]))
                .rejects(Path.of(args[2]))
                .debt(args.length == 4 ? Path.of(args[3]) : null)
                .build();
        DumpLoader.Result result = DumpLoader.load(options, Path.of(args[1]), DumpLoader.buildOptionsFor(options, 0));
        System.out.print(result.summary().render());
    }
}
