/**
 * The Receita Federal dump loader: reads the monthly CNPJ open-data dump (37 ZIPs, ISO-8859-1, streamed
 * from the ZIP entries) and the PGFN active-debt files, joins each establishment with its company,
 * Simples/MEI options and debt flag, and hands the {@link dev.cadastro.core.register.Establishment}
 * records to a sink. It knows no index: the server joins it to the register's index builder
 * ({@code dev.cadastro.server.DumpLoader}). It also writes synthetic dumps in exactly the same format for
 * demos, tests and benchmarks.
 */
module dev.cadastro.loader {
    requires transitive dev.cadastro.core;

    exports dev.cadastro.loader;
    exports dev.cadastro.loader.generate;
}
