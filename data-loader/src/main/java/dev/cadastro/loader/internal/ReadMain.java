package dev.cadastro.loader.internal;

import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import java.nio.file.Path;

/**
 * A bare entry point that reads and joins a whole dump (structure, CRCs, rejects, summary) without
 * indexing it: the reader's own throughput.
 * {@code java -m dev.cadastro.loader/dev.cadastro.loader.internal.ReadMain DUMP REJECTS [DEBT]}. A load
 * into the register index is {@code ./cadastro load} (or {@code dev.cadastro.server.internal.LoadMain}).
 */
public final class ReadMain {
    private ReadMain() {}

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: ReadMain DUMP REJECTS [DEBT]");
            System.exit(2);
        }
        LoadOptions options = LoadOptions.builder(Path.of(args[0]))
                .rejects(Path.of(args[1]))
                .debt(args.length == 3 ? Path.of(args[2]) : null)
                .build();
        System.out.print(DumpReader.open(options).readInto(e -> {}).render());
    }
}
