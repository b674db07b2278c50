/**
 * The domain core of Cadastro: document value types (CPF, CNPJ numeric and alphanumeric, phones),
 * the error catalogue of both services, the rules (costs, dedup, OTP, cursor codec), the use cases
 * and the ports that adapters implement. It depends on the JDK alone: JSON, HTTP, SQL and Lucene
 * live in the adapter modules beside it.
 */
module dev.cadastro.core {
    exports dev.cadastro.core.account;
    exports dev.cadastro.core.calls;
    exports dev.cadastro.core.calls.push;
    exports dev.cadastro.core.company;
    exports dev.cadastro.core.credit;
    exports dev.cadastro.core.enrichment;
    exports dev.cadastro.core.document;
    exports dev.cadastro.core.ledger;
    exports dev.cadastro.core.mailing;
    exports dev.cadastro.core.overview;
    exports dev.cadastro.core.person;
    exports dev.cadastro.core.ratelimit;
    exports dev.cadastro.core.error;
    exports dev.cadastro.core.files;
    exports dev.cadastro.core.idempotency;
    exports dev.cadastro.core.keys;
    exports dev.cadastro.core.provider;
    exports dev.cadastro.core.register;
    exports dev.cadastro.core.sms;
    exports dev.cadastro.core.telemetry;
    exports dev.cadastro.core.time;
    exports dev.cadastro.core.work;
    // Word lists for synthetic data, shared by the dump generator and the simulated providers: not API.
    exports dev.cadastro.core.sample to
            dev.cadastro.loader,
            dev.cadastro.providers;
    // Shared text helpers: not API, for Cadastro's own modules only.
    exports dev.cadastro.core.internal to
            dev.cadastro.http,
            dev.cadastro.providers,
            dev.cadastro.register,
            dev.cadastro.store,
            dev.cadastro.server,
            dev.cadastro.servlet,
            dev.cadastro.loader;
}
