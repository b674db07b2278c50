/**
 * The thin HTTP adapter of Cadastro. A servlet-free request/response interface ({@link
 * dev.cadastro.http.Request}, {@link dev.cadastro.http.Response}, {@link dev.cadastro.http.Handler})
 * that any host can mount, routing with honest 404 and 405 answers, the two services' error envelopes
 * built from the core's error catalogue in one exhaustive mapping, JSON through jackson-core's
 * streaming API, and the company-data and call-records endpoints. It starts no listener: the runnable
 * server mounts the handlers in Jetty ({@code dev.cadastro.jetty}), and any servlet host can through
 * {@code dev.cadastro.servlet}.
 */
module dev.cadastro.http {
    requires dev.cadastro.core;
    requires com.fasterxml.jackson.core;

    exports dev.cadastro.http;
    exports dev.cadastro.http.companydata;
    exports dev.cadastro.http.callrecords;
}
