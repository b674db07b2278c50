package dev.cadastro.core.credit;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.InvalidDocumentException;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.Ledger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: a credit report on a CPF or a CNPJ ({@code POST /credito/consultar}), in this
 * order:
 *
 * <ol>
 *   <li>the {@code credito:read} scope ({@code SEM_ESCOPO}), then the document: required; a CPF whose
 *       check digits are wrong is {@code CPF_INVALIDO}, anything else invalid {@code
 *       PARAMETRO_INVALIDO};
 *   <li>the account's own cache: a fetch of the same document by the same account less than {@link
 *       #CACHE_TERM 7 days} ago answers without calling the bureau ({@code fonte: cache});
 *   <li>otherwise the balance is checked before the bureau is paid, then the bureau is called through
 *       its port: {@code FORNECEDOR_INDISPONIVEL} passes through (nothing charged, nothing cached), an
 *       empty answer is {@code SEM_DADOS} (not charged);
 *   <li>the charge: 10 credits once per account, document and calendar month in America/Sao_Paulo, the
 *       same whether the answer came from the bureau or the cache (a cached answer read in a new month is
 *       charged for that month). A fresh report is charged and cached in one transaction.
 * </ol>
 */
public final class CreditReportService {
    /** How long an account's fetch answers its repeats from the cache. */
    public static final Duration CACHE_TERM = Duration.ofDays(7);

    private final CreditBureau bureau;
    private final CreditReportCache cache;
    private final Ledger ledger;
    private final CostRules costs;
    private final Clock clock;

    public CreditReportService(
            CreditBureau bureau, CreditReportCache cache, Ledger ledger, CostRules costs, Clock clock) {
        this.bureau = Objects.requireNonNull(bureau, "bureau");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Delivers the credit report on a document for the principal and charges it under the monthly rule.
     *
     * @param documento a CPF or a CNPJ as the client sent it, with or without the mask
     */
    public CreditOutcome consult(Principal principal, String documento) {
        principal.require(Scope.CREDITO_READ);
        TaxId document = parse(documento);
        ChargeRequest charge = switch (document) {
            case Cpf cpf -> costs.creditReport(principal.accountId(), cpf);
            case Cnpj cnpj -> costs.creditReport(principal.accountId(), cnpj);
        };
        Instant now = clock.instant();
        // Strictly less than 7 days old: at exactly 7 days the bureau is asked again.
        Optional<CachedReport> cached = cache.find(
                principal.accountId(), document, now.minus(CACHE_TERM).plusNanos(1));
        if (cached.isPresent()) {
            ChargeResult paid = ledger.charge(charge);
            return new CreditOutcome(
                    cached.get().report(),
                    CreditOutcome.Source.CACHE,
                    cached.get().fetchedAt(),
                    paid.charged(),
                    paid.balanceAfter());
        }
        ledger.requireAffordable(charge);
        CreditReport report = bureau.report(document)
                .orElseThrow(() -> new CadastroException(
                        ErrorCode.SEM_DADOS, Message.CREDIT_NO_DATA.with(kind(document), shown(document))));
        Instant fetchedAt = clock.instant();
        ChargeResult paid =
                cache.chargeAndKeep(charge, new CachedReport(principal.accountId(), document, report, fetchedAt));
        return new CreditOutcome(report, CreditOutcome.Source.BUREAU, fetchedAt, paid.charged(), paid.balanceAfter());
    }

    private static TaxId parse(String text) {
        return switch (TaxId.parse(text)) {
            case Parsed.Valid<TaxId> v -> v.value();
            case Parsed.Invalid<TaxId> i -> throw new InvalidDocumentException(i.violation());
        };
    }

    private static String kind(TaxId document) {
        return document instanceof Cpf ? "CPF" : "CNPJ";
    }

    /** A CPF in messages is masked: error messages are logged and must not carry personal data. */
    private static String shown(TaxId document) {
        return switch (document) {
            case Cpf cpf -> cpf.masked();
            case Cnpj cnpj -> cnpj.formatted();
        };
    }
}
