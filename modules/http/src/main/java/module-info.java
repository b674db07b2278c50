/**
 * The thin HTTP adapter of Cadastro. A servlet-free request/response interface ({@link
 * dev.cadastro.http.Request}, {@link dev.cadastro.http.Response}, {@link dev.cadastro.http.Handler})
 * that any host can mount, routing with honest 404 and 405 answers, the two services' error envelopes
 * built from the core's error catalogue in one exhaustive mapping, JSON through jackson-core's
 * streaming API, the company-data endpoints, and a default runtime on the JDK's built-in {@code
 * com.sun.net.httpserver} server with virtual threads.
 */
module dev.cadastro.http {
    requires dev.cadastro.core;
    requires com.fasterxml.jackson.core;
    requires jdk.httpserver;

    exports dev.cadastro.http;
    exports dev.cadastro.http.jdk;
    exports dev.cadastro.http.companydata;
    exports dev.cadastro.http.callrecords;
}
