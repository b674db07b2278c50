package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.company.ChangeOutcome;
import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.company.LookupOutcome;
import dev.cadastro.core.company.SearchOutcome;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.enrichment.EnrichmentService;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.overview.AccountOverviewService;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.ratelimit.Admitted;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.http.ErrorMapping;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Headers;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.RateLimitHeaders;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.Router;
import dev.cadastro.http.internal.Json;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The company-data endpoints implemented so far, as a {@link Router} any runtime can mount:
 *
 * <ul>
 *   <li>{@code GET /v1/empresas}: register search;
 *   <li>{@code GET /v1/empresas/{cnpj}}: CNPJ lookup, also reached as {@code
 *       /v1/empresas/12.345.678/0001-95} when a client leaves the mask's slash unencoded;
 *   <li>{@code POST /v1/mailing}, {@code GET /v1/mailing/{job_id}}, {@code GET
 *       /v1/mailing/{job_id}/arquivo}: mailing exports ({@link MailingEndpoints}); {@code POST
 *       /v1/mailing/estimativa}, an addition beyond the contract: the count and the hold of an export,
 *       free;
 *   <li>{@code GET /v1/enriquecimento/{cnpj}} (also with the mask's slash unencoded) and {@code POST
 *       /v1/credito/consultar}: bureau enrichment and credit reports ({@link
 *       BureauEndpoints});
 *   <li>{@code POST /v1/pessoas/consultar}, {@code POST /v1/pessoas/consultar-async}, {@code GET
 *       /v1/pessoas/jobs/{job_id}}, {@code POST /v1/pessoas/lote}: person lookup (
 *       {@link PersonEndpoints});
 *   <li>{@code POST /v1/sms/otp} and {@code POST /v1/sms/otp/verificar}: SMS one-time codes (
 *       4.8, {@link SmsEndpoints});
 *   <li>{@code GET /v1/conta}, an addition beyond the contract: the asking key's account overview
 *       (balances, held credits, daily limit and use, the key's scopes and release), any valid key,
 *       free ({@link AccountJson});
 *   <li>{@code POST /v1/empresas/lote}, an addition beyond the contract: up to the account's ceiling of
 *       CNPJs in one call, one item per position ({@link CompanyBatchEndpoint});
 *   <li>{@code GET /v1/openapi.json}: the OpenAPI 3.1 document of exactly these, without a key.
 * </ul>
 *
 * <p>Every successful answer read from the register (search, lookup, batch, enrichment, the export
 * estimate and status) carries {@value DataReference#HEADER} with the reference month of the dump the
 * served generation was loaded from, when the generation recorded one; {@code GET /v1/conta} carries it
 * too, with the publication time in its body.
 *
 * <p>Each data endpoint first admits the request through {@link Admission}: it authenticates the key
 * ({@code Authorization: Bearer <key>} or {@code X-API-Key}) and counts the request against the rate
 * limits in one store call; then it runs the use case, which checks the scope and the
 * cost rules. From the rate limit on, every answer, errors included, carries the {@code X-RateLimit-*}
 * headers; a 429 adds {@code Retry-After}. The key's scope is checked before any parameter, so a key
 * without it learns nothing about the route's parameters. A paid answer carries the balance after the
 * charge in {@value #BALANCE_HEADER}. A search may send {@code Idempotency-Key} ({@link
 * IdempotentResponses}): the same key with the same search answers the first page again, charging
 * nothing; with another search it is refused. So may a mailing export, an enrichment and a credit
 * report.
 *
 * <p>Errors take their status from {@link ErrorMapping} for the endpoint that answered: a provider
 * failure ({@code FORNECEDOR_INDISPONIVEL}) is 503 on enrichment and 502 on a credit report, with
 * {@code Retry-After} when the provider's circuit is open.
 */
public final class CompanyDataApi {
    /** The balance after a charge, on answers that touched the ledger. */
    public static final String BALANCE_HEADER = "X-Creditos-Saldo";

    private static final String OPENAPI_RESOURCE = "openapi.json";

    private final Admission admission;
    private final CompanyService companies;
    private final IdempotentResponses idempotent;
    private final MailingEndpoints mailing;
    private final BureauEndpoints bureau;
    private final PersonEndpoints persons;
    private final SmsEndpoints sms;
    private final AccountOverviewService overviews;
    private final CompanyBatchEndpoint companyBatch;
    private final byte[] openApi;

    private CompanyDataApi(
            Admission admission,
            CompanyService companies,
            MailingService mailing,
            EnrichmentService enrichment,
            CreditReportService credit,
            OtpService otp,
            PersonLookupService persons,
            AccountOverviewService overviews,
            IdempotentResponses idempotent) {
        this.admission = Objects.requireNonNull(admission, "admission");
        this.companies = Objects.requireNonNull(companies, "companies");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
        this.mailing = new MailingEndpoints(mailing, idempotent);
        this.bureau = new BureauEndpoints(enrichment, credit, idempotent);
        this.persons = new PersonEndpoints(persons, idempotent);
        this.sms = new SmsEndpoints(otp, idempotent);
        this.overviews = Objects.requireNonNull(overviews, "overviews");
        this.companyBatch = new CompanyBatchEndpoint(companies, idempotent);
        this.openApi = openApiDocument();
    }

    /** The router of the company-data service, with its envelope. */
    public static Router router(
            Admission admission,
            CompanyService companies,
            MailingService mailing,
            EnrichmentService enrichment,
            CreditReportService credit,
            OtpService otp,
            PersonLookupService persons,
            AccountOverviewService overviews,
            IdempotentResponses idempotent) {
        CompanyDataApi api = new CompanyDataApi(
                admission, companies, mailing, enrichment, credit, otp, persons, overviews, idempotent);
        ErrorMapping.Endpoint enriching = ErrorMapping.Endpoint.ENRICHMENT;
        ErrorMapping.Endpoint reporting = ErrorMapping.Endpoint.CREDIT_REPORT;
        return Router.builder(Service.COMPANY_DATA)
                // Search pages, lookups and enrichment charge: no HEAD on them (see Router).
                .getCharged("/v1/empresas", api::search)
                // Before the lookup's template, which would take "alteracoes" for a CNPJ.
                .getCharged("/v1/empresas/alteracoes", api::changes)
                .getCharged("/v1/empresas/{cnpj}", api::lookup)
                // NN.NNN.NNN/NNNN-NN sent with its slash unencoded arrives as two segments.
                .getCharged("/v1/empresas/{cnpj}/{ordem}", api::lookup)
                .post("/v1/empresas/lote", r -> api.guarded(r, Scope.EMPRESAS_READ, p -> api.companyBatch.batch(r, p)))
                .post("/v1/mailing", r -> api.guarded(r, Scope.MAILING_EXPORT, p -> api.mailing.create(r, p)))
                .post(
                        "/v1/mailing/estimativa",
                        r -> api.fresh(api.guarded(r, Scope.MAILING_READ, p -> api.mailing.estimate(r, p))))
                .get(
                        "/v1/mailing/{job_id}",
                        r -> api.fresh(api.guarded(r, Scope.MAILING_READ, p -> api.mailing.status(r, p))))
                .get(
                        "/v1/mailing/{job_id}/arquivo",
                        r -> api.guarded(r, Scope.MAILING_READ, p -> api.mailing.download(r, p)))
                .getCharged(
                        "/v1/enriquecimento/{cnpj}",
                        r -> api.fresh(
                                api.guarded(r, Scope.ENRIQUECIMENTO_READ, enriching, p -> api.bureau.enrich(r, p))))
                .getCharged(
                        "/v1/enriquecimento/{cnpj}/{ordem}",
                        r -> api.fresh(
                                api.guarded(r, Scope.ENRIQUECIMENTO_READ, enriching, p -> api.bureau.enrich(r, p))))
                .post(
                        "/v1/credito/consultar",
                        r -> api.guarded(r, Scope.CREDITO_READ, reporting, p -> api.bureau.consult(r, p)))
                .post("/v1/pessoas/consultar", r -> api.guarded(r, Scope.PESSOAS_READ, p -> api.persons.lookup(r, p)))
                .post(
                        "/v1/pessoas/consultar-async",
                        r -> api.guarded(r, Scope.PESSOAS_READ, p -> api.persons.createJob(r, p)))
                // The first read of a job runs the lookup and charges: no HEAD.
                .getCharged(
                        "/v1/pessoas/jobs/{job_id}",
                        r -> api.guarded(r, Scope.PESSOAS_READ, p -> api.persons.readJob(r, p)))
                .post("/v1/pessoas/lote", r -> api.guarded(r, Scope.PESSOAS_READ, p -> api.persons.batch(r, p)))
                .post("/v1/sms/otp", r -> api.guarded(r, Scope.SMS_OTP, p -> api.sms.send(r, p)))
                .post("/v1/sms/otp/verificar", r -> api.guarded(r, Scope.SMS_OTP, p -> api.sms.check(r, p)))
                .get("/v1/conta", api::account)
                .get("/v1/openapi.json", api::openApi)
                .build();
    }

    /** The OpenAPI 3.1 document served at {@code /v1/openapi.json}. */
    public static byte[] openApiDocument() {
        return Json.resource(CompanyDataApi.class, OPENAPI_RESOURCE);
    }

    private Response search(Request request) throws Exception {
        return guarded(request, Scope.EMPRESAS_READ, principal -> {
            RegisterQuery query = SearchParameters.parse(request.query().asMap());
            RequestFingerprint fingerprint =
                    RequestFingerprint.of("GET /v1/empresas", SearchParameters.toParameters(query));
            return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
                SearchOutcome outcome = companies.search(principal, query, reference);
                SearchResult page = outcome.page();
                byte[] body = CompanyDataJson.searchResponse(page, outcome.countOnly(), outcome.creditsCharged());
                return withBalance(withReference(Response.json(200, body), companies), outcome.balanceAfter());
            });
        });
    }

    /**
     * {@code GET /v1/empresas/alteracoes}, an addition beyond the contract: the register's monthly changes,
     * filtered as a search, charged as a search page through the same path and Idempotency-Key replay.
     */
    private Response changes(Request request) throws Exception {
        return guarded(request, Scope.EMPRESAS_READ, principal -> {
            ChangeQuery query = SearchParameters.parseChanges(request.query().asMap());
            RequestFingerprint fingerprint =
                    RequestFingerprint.of("GET /v1/empresas/alteracoes", SearchParameters.toParameters(query));
            return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
                ChangeOutcome outcome = companies.changes(principal, query, reference);
                byte[] body =
                        CompanyDataJson.changesResponse(outcome.page(), outcome.countOnly(), outcome.creditsCharged());
                return withBalance(withReference(Response.json(200, body), companies), outcome.balanceAfter());
            });
        });
    }

    private Response lookup(Request request) throws Exception {
        return guarded(request, Scope.EMPRESAS_READ, principal -> {
            refuseQuery(request, "GET /v1/empresas/{cnpj}", Message.TAKES_NONE.with());
            String cnpj = request.pathParameter("cnpj").orElse("")
                    + request.pathParameter("ordem").map(o -> "/" + o).orElse("");
            LookupOutcome outcome = companies.lookup(principal, cnpj);
            byte[] body = CompanyDataJson.lookupResponse(outcome.empresa(), outcome.creditsCharged());
            return withReference(
                    Response.json(200, body).withHeader(BALANCE_HEADER, Long.toString(outcome.balanceAfter())),
                    companies);
        });
    }

    /** The answer with {@value DataReference#HEADER}, when the served generation recorded its month. */
    static Response withReference(Response response, CompanyService companies) {
        return companies
                .reference()
                .map(r -> response.withHeader(DataReference.HEADER, r.wire()))
                .orElse(response);
    }

    /** The answer with the balance after the charge in {@value #BALANCE_HEADER}, when the call touched the ledger. */
    private static Response withBalance(Response response, OptionalLong balanceAfter) {
        return balanceAfter.isPresent()
                ? response.withHeader(BALANCE_HEADER, Long.toString(balanceAfter.getAsLong()))
                : response;
    }

    /**
     * {@link #withReference} on a successful answer that does not carry the header yet (a stored answer
     * replayed for an {@code Idempotency-Key} keeps the month it was first answered with).
     */
    private Response fresh(Response response) {
        if (response.status() / 100 != 2
                || response.headers().first(DataReference.HEADER).isPresent()) {
            return response;
        }
        return withReference(response, companies);
    }

    /** Refuses any query parameter, naming the first one sent. */
    static void refuseQuery(Request request, String route, LocalizedText why) {
        if (!request.query().isEmpty()) {
            String name = request.query().asMap().keySet().iterator().next();
            throw InvalidParameterException.of(
                    name, "unknown-parameter", Message.PARAMETER_NOT_ACCEPTED_BY.with(name, route, why));
        }
    }

    /** Any valid key: no scope is required; it answers only its own account and its own key. */
    private Response account(Request request) throws Exception {
        return admitted(request, ErrorMapping.Endpoint.STANDARD, admitted -> {
            refuseQuery(request, "GET /v1/conta", Message.TAKES_NONE.with());
            java.util.Optional<DataReference> reference = companies.reference();
            return withReference(
                    Response.json(200, AccountJson.overview(overviews.overview(admitted), reference)), companies);
        });
    }

    private Response openApi(Request request) {
        return Response.json(200, openApi).withHeader("Cache-Control", "public, max-age=3600");
    }

    @FunctionalInterface
    private interface Authorized {
        Response handle(Principal principal) throws Exception;
    }

    @FunctionalInterface
    private interface AdmittedOperation {
        Response handle(Admitted admitted) throws Exception;
    }

    /**
     * Admission (authentication, then the rate limits), then the scope, then the operation; from the
     * rate limit on, every answer carries the rate-limit headers.
     */
    private Response guarded(Request request, Scope scope, Authorized operation) throws Exception {
        return guarded(request, scope, ErrorMapping.Endpoint.STANDARD, operation);
    }

    /** As above, with the statuses of an endpoint whose published status list overrides some ({@link ErrorMapping}). */
    private Response guarded(Request request, Scope scope, ErrorMapping.Endpoint endpoint, Authorized operation)
            throws Exception {
        return admitted(
                request,
                endpoint,
                admitted -> operation.handle(admitted.principal().require(scope)));
    }

    /** Admission, then the operation with what admission found (the principal and the rate-limit windows). */
    private Response admitted(Request request, ErrorMapping.Endpoint endpoint, AdmittedOperation operation)
            throws Exception {
        Admitted admitted;
        try {
            admitted = admission.admit(Credentials.key(request.headers()));
        } catch (RateLimitExceededException e) {
            request.facts().refusedBy(e.code().name());
            return ErrorResponses.render(Service.COMPANY_DATA, endpoint, e, request.requestId(), request.locale())
                    .withHeaders(RateLimitHeaders.of(e));
        }
        request.facts().account(admitted.principal().accountId().value());
        Headers rateHeaders = RateLimitHeaders.of(admitted.decision());
        try {
            return operation.handle(admitted).withHeaders(rateHeaders);
        } catch (Exception | StackOverflowError e) {
            return ErrorResponses.render(Service.COMPANY_DATA, endpoint, e, request.requestId(), request.locale())
                    .withHeaders(rateHeaders);
        }
    }
}
