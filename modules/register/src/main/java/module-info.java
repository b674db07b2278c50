/**
 * The register index on Lucene: {@link dev.cadastro.register.RegisterIndexBuilder} writes a new
 * generation of the index from the loader's establishments and publishes it atomically; {@link
 * dev.cadastro.register.LuceneRegister} answers the core's {@code RegisterSearch} port (filtered
 * search, exact or estimated counts, CNPJ lookup, the partner structure of a CNPJ root) over the
 * published generation and switches to a newer one without failing a query. {@link
 * dev.cadastro.register.publication.IndexPublisher} publishes a generation to a core {@code FileStore}
 * (an object store) and {@link dev.cadastro.register.publication.IndexFollower} keeps a server's local
 * copy on the one the store's pointer names.
 */
module dev.cadastro.register {
    requires transitive dev.cadastro.core;
    requires org.apache.lucene.core;

    exports dev.cadastro.register;
    exports dev.cadastro.register.publication;
}
