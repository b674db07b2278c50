package dev.cadastro.core.enrichment;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.InvalidDocumentException;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.Violation;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.RegisterSearch;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: bureau enrichment of a CNPJ ({@code GET /enriquecimento/{cnpj}},
 * 4.6), in this order:
 *
 * <ol>
 *   <li>the {@code enriquecimento:read} scope ({@code SEM_ESCOPO}), then the account's LGPD
 *       accreditation ({@code CREDENCIAMENTO_PENDENTE}), then the CNPJ ({@code PARAMETRO_INVALIDO}; a
 *       CPF is refused here too: enrichment is for companies only);
 *   <li>the balance: an account that could not pay the 5 credits gets {@code SEM_CREDITOS} before the
 *       bureau is paid for an answer it would not receive (a repeat the same day is free, so it passes);
 *   <li>the bureau, through its port (timeout, concurrency bound, circuit breaker, allowlist): {@code
 *       FORNECEDOR_INDISPONIVEL} passes through and nothing is charged;
 *   <li>{@code NAO_ENCONTRADO}, free, when neither the register nor the bureau knows the CNPJ;
 *   <li>the charge (5, or 0 the same day for the same account), after the answer exists and before it
 *       is delivered.
 * </ol>
 *
 * <p>The partner structure is the register's public one (the dump's QSA), which is authoritative for
 * who the partners are; the bureau only completes what the public data masks or lacks: a partner's
 * full CPF, when it is consistent with the published digits, and the share of the capital. A bureau
 * partner that does not match a public one is dropped, and a public partner the bureau does not
 * complete keeps {@code cpf} null rather than a guess. When the register lists no partner for the
 * company (an index loaded without partners), the bureau's list is used as it came.
 */
public final class EnrichmentService {
    private final RegisterSearch register;
    private final CompanyBureau bureau;
    private final Ledger ledger;
    private final CostRules costs;

    public EnrichmentService(RegisterSearch register, CompanyBureau bureau, Ledger ledger, CostRules costs) {
        this.register = Objects.requireNonNull(register, "register");
        this.bureau = Objects.requireNonNull(bureau, "bureau");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.costs = Objects.requireNonNull(costs, "costs");
    }

    /**
     * Enriches a CNPJ for the principal and charges it under the same-day rule.
     *
     * @param cnpj as the client sent it, with or without punctuation
     */
    public EnrichmentOutcome enrich(Principal principal, String cnpj) {
        principal.require(Scope.ENRIQUECIMENTO_READ).requireAccreditation();
        Cnpj valid = parse(cnpj);
        ChargeRequest charge = costs.enrichment(principal.accountId(), valid);
        ledger.requireAffordable(charge);
        Optional<BureauCompany> answer = bureau.company(valid);
        // The answer's month is that of the generation the partners come from, whatever is published next.
        RegisterSearch.PartnersOf read = register.partnersReferenced(valid.root());
        List<Partner> published = read.partners();
        BureauCompany enrichment;
        if (answer.isPresent()) {
            enrichment = withPublishedPartners(answer.get(), published);
        } else {
            // The register's record is read only when the bureau has nothing; the common path needs it not.
            Empresa record = register.lookup(valid)
                    .orElseThrow(() -> new NotFoundException(Message.ENRICHMENT_NOT_FOUND.with(valid.formatted())));
            enrichment = fromRegisterOnly(valid, record, published);
        }
        ChargeResult paid = ledger.charge(charge);
        return new EnrichmentOutcome(enrichment, paid.charged(), paid.balanceAfter(), read.reference());
    }

    private static Cnpj parse(String text) {
        Parsed<Cnpj> parsed = Cnpj.parse(text);
        if (parsed instanceof Parsed.Valid<Cnpj> v) {
            return v.value();
        }
        Violation violation = ((Parsed.Invalid<Cnpj>) parsed).violation();
        String digits = text == null ? "" : text.replaceAll("[.\\-\\s]", "");
        if (digits.length() == 11 && digits.chars().allMatch(Character::isDigit)) {
            violation = new Violation(Cnpj.FIELD, Violation.FORMAT, Message.ENRICHMENT_CNPJ_ONLY.with(digits.length()));
        }
        throw new InvalidDocumentException(violation);
    }

    /** The bureau's answer with the register's partners completed by the bureau's. */
    static BureauCompany withPublishedPartners(BureauCompany answer, List<Partner> published) {
        if (published.isEmpty()) {
            return answer;
        }
        List<BureauCompany.Socio> socios = published.stream()
                .map(p -> PartnerMatch.complete(p, answer.socios()))
                .toList();
        return new BureauCompany(
                answer.cnpj(),
                answer.porte(),
                answer.operacao(),
                answer.atividadesSecundarias(),
                answer.complementos(),
                socios,
                answer.risco());
    }

    /** What the register alone says, when the bureau has nothing on a CNPJ the register has. */
    static BureauCompany fromRegisterOnly(Cnpj cnpj, Empresa empresa, List<Partner> published) {
        BureauCompany.Porte porte = empresa.porte() == null
                ? null
                : new BureauCompany.Porte(empresa.porte(), empresa.porteDescricao(), null, null);
        return new BureauCompany(
                cnpj.value(),
                porte,
                null,
                List.of(),
                null,
                published.stream().map(p -> PartnerMatch.complete(p, List.of())).toList(),
                null);
    }
}
