package dev.cadastro.http;

/**
 * Answers one request. The same handler runs on the runnable server's Jetty runtime (module {@code
 * dev.cadastro.jetty}), in any servlet container through the bridge ({@code dev.cadastro.servlet}),
 * and on any host that bridges its own request type to {@link Request} and writes {@link Response}
 * back (see docs/http.md).
 *
 * <p>A handler may throw: a {@link dev.cadastro.core.error.CadastroException} becomes the envelope of
 * its code, anything else a 500 {@code ERRO_INTERNO} without a stack trace ({@link ErrorResponses}).
 */
@FunctionalInterface
public interface Handler {
    Response handle(Request request) throws Exception;
}
