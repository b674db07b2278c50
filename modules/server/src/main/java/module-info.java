/**
 * The runnable Cadastro: wires the adapters (register, store, http, providers) to the core's ports
 * and holds the {@code ./cadastro} command line. The API for hosts is {@link
 * dev.cadastro.server.CadastroEngine}: the whole service without a listener, whose handlers a servlet
 * container mounts through {@code dev.cadastro.servlet} (docs/embedding.md); hosts that need less use
 * the core and the adapter modules directly.
 */
module dev.cadastro.server {
    requires dev.cadastro.core;
    requires dev.cadastro.files;
    // Export files and recordings in an object store (--files s3://BUCKET[/PREFIX]).
    requires dev.cadastro.s3;
    requires dev.cadastro.http;
    // Every listener runs on Jetty 12 through the servlet bridge; its RuntimeOptions are part of the Config.
    requires transitive dev.cadastro.jetty;
    requires dev.cadastro.register;
    requires dev.cadastro.store;
    requires dev.cadastro.loader;
    requires dev.cadastro.exports;
    requires dev.cadastro.providers;
    // Metrics in the Prometheus text format on the management listener (--metrics-port).
    requires dev.cadastro.metrics;
    // The demo turns the JDK logging backend (where System.Logger and SLF4J end) down to warnings.
    requires java.logging;
    // The demo's push receiver (DemoReceiver) listens on loopback with the JDK's HTTP server.
    requires jdk.httpserver;
    // The ./cadastro command line; picocli reads and sets the commands' annotated fields reflectively.
    requires info.picocli;

    exports dev.cadastro.server;
    exports dev.cadastro.server.cli;

    opens dev.cadastro.server.cli to
            info.picocli;
    opens dev.cadastro.server.cli.admin to
            info.picocli;
}
