/**
 * The servlet bridge: mounts Cadastro's runtime-neutral handlers ({@link dev.cadastro.http.Handler}:
 * both services' routers, the recording host, the health endpoints) in any Jakarta Servlet 6 container
 * (Jetty, Tomcat, Undertow, or the one inside Spring Boot or Quarkus), with the same request limits,
 * request ids and error envelopes as the runnable server, which runs on it ({@code dev.cadastro.jetty}). The container provides the servlet API.
 */
module dev.cadastro.servlet {
    requires dev.cadastro.core;
    requires transitive dev.cadastro.http;
    requires transitive jakarta.servlet;

    exports dev.cadastro.servlet;
}
