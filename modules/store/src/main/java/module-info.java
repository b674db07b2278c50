/**
 * The PostgreSQL store of Cadastro: adapters of the core's ports for accounts, API keys, the credit
 * ledger and rate limits, on HikariCP and pgjdbc, with hand-written versioned migrations applied at
 * start-up under an advisory lock. {@link dev.cadastro.store.Store} opens it on any PostgreSQL URL or
 * on an embedded real PostgreSQL kept in a local folder ({@link dev.cadastro.store.EmbeddedDatabase}).
 */
module dev.cadastro.store {
    requires transitive dev.cadastro.core;
    requires transitive java.sql;
    requires com.zaxxer.hikari;
    // The credit-report cache keeps reports as jsonb, written and read with the streaming API.
    requires com.fasterxml.jackson.core;
    requires org.postgresql.jdbc;
    // The embedded PostgreSQL (an automatic module) and the explicit modules it loads reflectively-free
    // but that nothing else would put in the module graph.
    requires embedded.postgres;
    requires org.apache.commons.compress;
    requires org.apache.commons.io;
    requires org.apache.commons.lang3;
    requires org.tukaani.xz;
    requires org.apache.commons.codec;
    requires org.slf4j;

    exports dev.cadastro.store;
}
