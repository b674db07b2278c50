package dev.cadastro.core.company;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.register.SearchResult;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Use case: register search ({@code GET /empresas}) and CNPJ lookup ({@code GET /empresas/{cnpj}})
 * with the cost rules of docs/rules.md.
 *
 * <ul>
 *   <li>A count-only search asks the register for the count alone and costs nothing; the ledger is not
 *       touched.
 *   <li>A search page is charged {@code retornados} credits under the call's reference, after the
 *       register answered and before anything is delivered: when the balance does not cover the page
 *       the ledger refuses ({@code SEM_CREDITOS}), nothing is charged and the page is dropped. A page
 *       of zero records costs zero.
 *   <li>A lookup validates the CNPJ by its check digits before the register is asked; a CNPJ the
 *       register does not have is {@code NAO_ENCONTRADO} and costs nothing; a found record costs 1
 *       credit, or 0 when the account already looked the same CNPJ up the same day in
 *       America/Sao_Paulo (the ledger's idempotency key carries the day).
 * </ul>
 *
 * Every operation first checks the {@code empresas:read} scope, so an adapter cannot forget it.
 */
public final class CompanyService {
    private final RegisterSearch register;
    private final Ledger ledger;
    private final CostRules costs;

    public CompanyService(RegisterSearch register, Ledger ledger, CostRules costs) {
        this.register = Objects.requireNonNull(register, "register");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.costs = Objects.requireNonNull(costs, "costs");
    }

    /**
     * Runs a search for the principal and charges what it delivers.
     *
     * @param reference unique to this call (a request id, or the client's idempotency key): a retry
     *     with the same reference is not charged again
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}, {@code SEM_CREDITOS}, or
     *     {@code PARAMETRO_INVALIDO} from the register
     */
    public SearchOutcome search(Principal principal, RegisterQuery query, String reference) {
        principal.require(Scope.EMPRESAS_READ);
        if (query.countOnly()) {
            CountResult count = register.count(query);
            SearchResult page =
                    new SearchResult(List.of(), query.pagina(), query.limite(), 0, count.total(), count.aproximado());
            return new SearchOutcome(page, true, 0, OptionalLong.empty());
        }
        SearchResult page = register.search(query);
        if (page.retornados() == 0) {
            return new SearchOutcome(page, false, 0, OptionalLong.empty());
        }
        ChargeRequest charge = costs.search(principal.accountId(), reference, page.retornados(), false);
        ChargeResult paid = ledger.charge(charge);
        return new SearchOutcome(page, false, paid.charged(), OptionalLong.of(paid.balanceAfter()));
    }

    /**
     * Looks a CNPJ up for the principal and charges it under the same-day rule.
     *
     * @param cnpj as the client sent it, with or without punctuation
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}, {@code PARAMETRO_INVALIDO}
     *     (bad CNPJ), {@code NAO_ENCONTRADO}, {@code SEM_CREDITOS}
     */
    public LookupOutcome lookup(Principal principal, String cnpj) {
        principal.require(Scope.EMPRESAS_READ);
        Cnpj valid = Cnpj.of(cnpj);
        Empresa empresa = register.lookup(valid)
                .orElseThrow(() -> new NotFoundException(Message.COMPANY_NOT_FOUND.with(valid.formatted())));
        ChargeResult paid = ledger.charge(costs.companyLookup(principal.accountId(), valid));
        return new LookupOutcome(empresa, paid.charged(), paid.balanceAfter());
    }
}
