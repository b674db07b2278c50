package dev.cadastro.providers;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.credit.CreditBureau;
import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.enrichment.BureauCompany;
import dev.cadastro.core.enrichment.CompanyBureau;
import dev.cadastro.core.person.Dossier;
import dev.cadastro.core.person.PersonBureau;
import dev.cadastro.core.person.Subject;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.core.sms.SmsMessage;
import java.util.Objects;
import java.util.Optional;

/**
 * The provider ports wrapped in a {@link ProviderGuard}: what the server wires into the use cases.
 * Each returned port throws {@code ProviderUnavailableException} and nothing else on failure.
 */
public final class GuardedProviders {
    private GuardedProviders() {}

    /** The bureau under a new guard named {@code name} with this policy. */
    public static CompanyBureau guard(String name, CompanyBureau delegate, ProviderPolicy policy) {
        return guard(delegate, ProviderGuard.of(name, policy));
    }

    /** The credit bureau under a new guard named {@code name} with this policy. */
    public static CreditBureau guard(String name, CreditBureau delegate, ProviderPolicy policy) {
        return guard(delegate, ProviderGuard.of(name, policy));
    }

    /** The bureau under this guard (keep the guard to read its {@link ProviderGuard#snapshot()}). */
    public static CompanyBureau guard(CompanyBureau delegate, ProviderGuard guard) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(guard, "guard");
        return new CompanyBureau() {
            @Override
            public Optional<BureauCompany> company(Cnpj cnpj) {
                return guard.call(() -> delegate.company(cnpj));
            }

            @Override
            public String toString() {
                return "guarded " + guard.name();
            }
        };
    }

    /** The credit bureau under this guard. */
    public static CreditBureau guard(CreditBureau delegate, ProviderGuard guard) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(guard, "guard");
        return new CreditBureau() {
            @Override
            public Optional<CreditReport> report(TaxId document) {
                return guard.call(() -> delegate.report(document));
            }

            @Override
            public String toString() {
                return "guarded " + guard.name();
            }
        };
    }

    /** The SMS provider under this guard. */
    public static SmsGateway guard(SmsGateway delegate, ProviderGuard guard) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(guard, "guard");
        return new SmsGateway() {
            @Override
            public String send(SmsMessage message) {
                return guard.call(() -> delegate.send(message));
            }

            @Override
            public String toString() {
                return "guarded " + guard.name();
            }
        };
    }

    /** The person bureau under this guard. */
    public static PersonBureau guard(PersonBureau delegate, ProviderGuard guard) {
        Objects.requireNonNull(delegate, "delegate");
        Objects.requireNonNull(guard, "guard");
        return new PersonBureau() {
            @Override
            public Optional<Dossier> lookup(Subject subject, Purpose purpose) {
                return guard.call(() -> delegate.lookup(subject, purpose));
            }

            @Override
            public String toString() {
                return "guarded " + guard.name();
            }
        };
    }
}
