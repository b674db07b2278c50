package dev.cadastro.core.company;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.register.SearchResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 *   <li>A batch lookup ({@code POST /v1/empresas/lote}, beyond the contract) answers one item per
 *       position and charges each delivered record as a lookup, under the same key: a CNPJ looked up
 *       today, by a single lookup or a batch, costs 0 in either; invalid CNPJs, CNPJs the register does
 *       not have and repeats within the batch cost 0; once the balance cannot pay a record, it and every
 *       later record not yet paid today are {@code sem_creditos}.
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
        // The reference is this request's own (its Idempotency-Key's, or its id): a replay means an earlier
        // attempt of the same request was charged and its answer never stored (its server died, or its
        // lease ran out). The page still cost what was charged then, once; say so rather than 0.
        long consumed = paid.replay() ? charge.amount() : paid.charged();
        return new SearchOutcome(page, false, consumed, OptionalLong.of(paid.balanceAfter()));
    }

    /**
     * A page of the register's monthly changes ({@code GET /v1/empresas/alteracoes}), charged exactly as a
     * search page: {@code retornados} credits under the call's reference, nothing for a count-only query
     * or an empty page, the ledger's replay of a reference never charged twice.
     */
    public ChangeOutcome changes(Principal principal, ChangeQuery query, String reference) {
        principal.require(Scope.EMPRESAS_READ);
        ChangePage page = register.changes(query);
        if (query.filtros().countOnly() || page.retornados() == 0) {
            return new ChangeOutcome(page, query.filtros().countOnly(), 0, OptionalLong.empty());
        }
        ChargeRequest charge = costs.search(principal.accountId(), reference, page.retornados(), false);
        ChargeResult paid = ledger.charge(charge);
        long consumed = paid.replay() ? charge.amount() : paid.charged();
        return new ChangeOutcome(page, false, consumed, OptionalLong.of(paid.balanceAfter()));
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

    /** The field of the batch's list. */
    public static final String CNPJS = "cnpjs";

    /**
     * Looks up a batch of CNPJs for the principal: one item per position, in order, never an error for
     * an item. Every CNPJ is parsed as the single lookup parses it (digits or the full mask, numeric or
     * alphanumeric); two positions with the same CNPJ, however written, are one record, delivered and
     * charged at the first. The records are read from one register generation, then charged together in
     * the order of the batch ({@link Ledger#chargeInOrder}) under the single lookup's keys.
     *
     * @param cnpjs the list as sent, every element a string (the adapter refuses other types)
     * @throws dev.cadastro.core.error.CadastroException {@code SEM_ESCOPO}; {@code PARAMETRO_INVALIDO}
     *     when the list is empty or longer than the account's contracted ceiling
     */
    public BatchLookupOutcome batch(Principal principal, List<String> cnpjs) {
        principal.require(Scope.EMPRESAS_READ);
        checkBatchSize(principal.account(), cnpjs);
        BatchLookupOutcome.Item[] items = new BatchLookupOutcome.Item[cnpjs.size()];
        Map<Cnpj, Integer> first = new HashMap<>();
        List<Cnpj> distinct = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < items.length; i++) {
            switch (Cnpj.parse(cnpjs.get(i))) {
                case Parsed.Invalid<Cnpj> invalid ->
                    items[i] = new BatchLookupOutcome.Item.CnpjInvalido(
                            invalid.violation().rule());
                case Parsed.Valid<Cnpj> valid -> {
                    Integer earlier = first.putIfAbsent(valid.value(), i);
                    if (earlier != null) {
                        items[i] = new BatchLookupOutcome.Item.Duplicado(earlier);
                    } else {
                        distinct.add(valid.value());
                        positions.add(i);
                    }
                }
            }
        }
        // The month from the generation that answered, not from whichever is current when the answer is written.
        RegisterSearch.Lookups lookups = distinct.isEmpty()
                ? new RegisterSearch.Lookups(List.of(), register.reference())
                : register.lookupAllReferenced(distinct);
        List<Optional<Empresa>> found = lookups.found();
        List<ChargeRequest> charges = new ArrayList<>();
        List<Integer> charged = new ArrayList<>();
        for (int k = 0; k < distinct.size(); k++) {
            int position = positions.get(k);
            if (found.get(k).isEmpty()) {
                items[position] = new BatchLookupOutcome.Item.NaoEncontrado(distinct.get(k));
            } else {
                charges.add(costs.companyLookup(principal.accountId(), distinct.get(k)));
                charged.add(k);
            }
        }
        long total = 0;
        long balance;
        if (charges.isEmpty()) {
            balance = ledger.balance(principal.accountId(), CreditKind.CREDITS).posted();
        } else {
            List<Optional<ChargeResult>> paid = ledger.chargeInOrder(charges);
            balance = Long.MAX_VALUE;
            for (int j = 0; j < charged.size(); j++) {
                int k = charged.get(j);
                Optional<ChargeResult> result = paid.get(j);
                if (result.isPresent()) {
                    total += result.get().charged();
                    balance = Math.min(balance, result.get().balanceAfter());
                    items[positions.get(k)] = new BatchLookupOutcome.Item.Encontrado(
                            found.get(k).get(), result.get().charged());
                } else {
                    items[positions.get(k)] = new BatchLookupOutcome.Item.SemCreditos();
                }
            }
            if (balance == Long.MAX_VALUE) {
                balance = ledger.balance(principal.accountId(), CreditKind.CREDITS)
                        .posted();
            }
        }
        return new BatchLookupOutcome(List.of(items), total, balance, lookups.reference());
    }

    /**
     * The size checks of {@link #batch}, for an adapter that checks them before it reads the items.
     *
     * @throws InvalidParameterException {@code cnpjs} empty, or over the account's ceiling (naming it)
     */
    public static void checkBatchSize(Account account, List<?> cnpjs) {
        if (cnpjs == null || cnpjs.isEmpty()) {
            throw InvalidParameterException.of(
                    CNPJS, "required", Message.COMPANY_CNPJS_REQUIRED.with(account.companyBatchLimit()));
        }
        if (cnpjs.size() > account.companyBatchLimit()) {
            throw InvalidParameterException.of(
                    CNPJS,
                    "ceiling",
                    Message.COMPANY_CNPJS_CEILING.with(cnpjs.size(), account.id(), account.companyBatchLimit()));
        }
    }

    /** The reference month of the register generation answering now; empty when it recorded none. */
    public Optional<DataReference> reference() {
        return register.reference();
    }
}
