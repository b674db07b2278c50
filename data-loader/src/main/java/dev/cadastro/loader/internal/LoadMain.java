package dev.cadastro.loader.internal;

import dev.cadastro.loader.DumpLoader;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import java.nio.file.Path;

/**
 * A bare entry point for a load without the server module:
 * {@code java -m dev.cadastro.loader/dev.cadastro.loader.internal.LoadMain DUMP INDEX REJECTS [DEBT]}.
 * The kill tests run it as a child process; operators use {@code ./cadastro load}. With {@code -} as
 * INDEX it reads and joins the whole dump (structure, CRCs, rejects, summary) without indexing: the
 * reader's own throughput.
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
        if (args[1].equals("-")) {
            System.out.print(DumpReader.open(options).readInto(e -> {}).render());
            return;
        }
        DumpLoader.Result result = DumpLoader.load(options, Path.of(args[1]), DumpLoader.buildOptionsFor(options, 0));
        System.out.print(result.summary().render());
    }
}
