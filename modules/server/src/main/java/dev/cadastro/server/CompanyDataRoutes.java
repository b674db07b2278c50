package dev.cadastro.server;

import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.credit.CreditReportService;
import dev.cadastro.core.enrichment.EnrichmentService;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.overview.AccountOverviewService;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Router;
import dev.cadastro.http.companydata.CompanyDataApi;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.store.Store;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * The company-data router over the adapters: the core's use cases built on the register, the store
 * and the providers, behind the HTTP API. The engine mounts it; a host that needs less than the engine
 * builds it here.
 */
public final class CompanyDataRoutes {
    /** What the person audit key is derived for. */
    static final String PERSON_AUDIT_KEY_PURPOSE = "person-audit";

    private CompanyDataRoutes() {}

    /** The company-data router over these adapters, with the simulated providers and no SMS provider. */
    public static Router router(
            LuceneRegister register, Store store, Admission admission, Clock clock, MailingService mailing) {
        return router(
                register,
                store,
                admission,
                clock,
                mailing,
                ProviderOptions.simulated().build(register));
    }

    /**
     * The company-data router over these adapters and providers, without an SMS provider: its sends
     * answer {@code SMS_INDISPONIVEL} ({@link SmsOptions.Sms#none()}).
     */
    public static Router router(
            LuceneRegister register,
            Store store,
            Admission admission,
            Clock clock,
            MailingService mailing,
            ProviderOptions.Providers providers) {
        return router(register, store, admission, clock, mailing, providers, SmsOptions.Sms.none());
    }

    /**
     * The company-data router over these adapters: what a host other than the server mounts. The
     * idempotency leases of its requests are renewed on daemon threads of its own, started by the first
     * request under a key and never stopped; a host that stops them passes its own {@link IdempotentCalls}
     * and closes it.
     */
    public static Router router(
            LuceneRegister register,
            Store store,
            Admission admission,
            Clock clock,
            MailingService mailing,
            ProviderOptions.Providers providers,
            SmsOptions.Sms sms) {
        return router(
                register,
                store,
                admission,
                clock,
                mailing,
                providers,
                sms,
                new IdempotentCalls(store.idempotency(), clock));
    }

    /**
     * The company-data router over these adapters, running requests under idempotency keys with {@code
     * keys}, which the caller closes after the router's last request.
     */
    public static Router router(
            LuceneRegister register,
            Store store,
            Admission admission,
            Clock clock,
            MailingService mailing,
            ProviderOptions.Providers providers,
            SmsOptions.Sms sms,
            IdempotentCalls keys) {
        CostRules costs = new CostRules(clock);
        CompanyService companies = new CompanyService(register, store.ledger(), costs);
        EnrichmentService enrichment = new EnrichmentService(register, providers.bureau(), store.ledger(), costs);
        CreditReportService credit =
                new CreditReportService(providers.credit(), store.creditReports(), store.ledger(), costs, clock);
        PersonLookupService persons = new PersonLookupService(
                providers.person(),
                store.personAudit(),
                store.personJobs(),
                store.ledger(),
                costs,
                personAuditKey(sms.keys()),
                clock,
                new SecureRandom());
        IdempotentResponses idempotent = new IdempotentResponses(keys);
        OtpService otp = sms.service(store.otpStore(), clock);
        AccountOverviewService overviews = new AccountOverviewService(store.accountFunds());
        return CompanyDataApi.router(
                admission, companies, mailing, enrichment, credit, otp, persons, overviews, idempotent);
    }

    /**
     * The key of the person audit trail's keyed hash: derived from the current key of the server's
     * keyring ({@link OtpSecrets}), under the keyring's key id, so one keyring holds and rotates every
     * secret (docs/adr/0024).
     */
    static SubjectDigests personAuditKey(Keyring keys) {
        Keyring.Derived derived = keys.derive(PERSON_AUDIT_KEY_PURPOSE);
        return new SubjectDigests(derived.keyId(), derived.secret());
    }
}
