package dev.cadastro.server.cli;

import picocli.CommandLine.Option;

/**
 * Where {@code serve} and {@code demo} take company-data requests: {@code --port} and {@code --bind}. The
 * two differ only in the address they bind by default: every interface for {@code serve}, loopback for
 * {@code demo}.
 */
final class ListenFlags {
    @Option(
            names = "--port",
            paramLabel = "P",
            description = "TCP port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int port = 8080;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    /** For picocli's model only; a command gives its own default address. */
    ListenFlags() {
        this("0.0.0.0");
    }

    ListenFlags(String bind) {
        this.bind = bind;
    }
}
