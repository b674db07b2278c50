package dev.cadastro.http;

/**
 * What the handlers learn about a request while answering it, for the metrics and the access log
 * ({@link Observed}): the route template the {@link Router} matched and the account (or call-records
 * integration) the credentials named. One per request, shared by the copies a router makes; both values
 * are safe to log by construction (a template, a numeric id), never anything the client typed.
 */
public final class RequestFacts {
    private volatile String route;
    private volatile String account;
    private volatile String refusedBy;

    RequestFacts() {}

    /** The matched route template ({@code /v1/empresas/{cnpj}}), or null when none matched yet. */
    public String route() {
        return route;
    }

    /** Records the template that answers; a host bridge's own routes may set their fixed names. */
    public void route(String template) {
        this.route = template;
    }

    /** The id of the account or integration that was authenticated, or null. */
    public String account() {
        return account;
    }

    /** Records the authenticated account or integration id (a number, never a key or token). */
    public void account(long id) {
        this.account = Long.toString(id);
    }

    /** The rate limit that refused the request ({@code LIMITE_MINUTO}, {@code LIMITE_DIARIO}), or null. */
    public String refusedBy() {
        return refusedBy;
    }

    /** Records that a rate limit refused the request, by its error code. */
    public void refusedBy(String code) {
        this.refusedBy = code;
    }
}
