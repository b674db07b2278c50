package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.time.SaoPauloTime;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cost table (docs/rules.md) as pure functions: each returns the charge (or
 * hold) an operation makes, with an idempotency key that encodes its dedup rule, so the ledger's
 * "once per key" is what makes a repeat free:
 *
 * <table>
 *   <caption>Costs and keys</caption>
 *   <tr><th>Operation</th><th>Cost</th><th>Key (one charge per key)</th></tr>
 *   <tr><td>search page</td><td>1 per record delivered; count-only 0</td><td>{@code search:{account}:{request}}</td></tr>
 *   <tr><td>CNPJ lookup</td><td>1</td><td>{@code lookup:{account}:{cnpj}:{day}}</td></tr>
 *   <tr><td>mailing export</td><td>hold the quantity, post 1 per lead delivered</td><td>{@code mailing:{account}:{job}}</td></tr>
 *   <tr><td>enrichment</td><td>5</td><td>{@code enrich:{account}:{cnpj}:{day}}</td></tr>
 *   <tr><td>person lookup</td><td>15, every call</td><td>{@code person:{account}:{request}}</td></tr>
 *   <tr><td>async person job</td><td>15 once, however often polled</td><td>{@code person-job:{account}:{job}}</td></tr>
 *   <tr><td>batch person lookup</td><td>15 per distinct valid CPF</td><td>{@code person-batch:{account}:{batch}:{first position}}</td></tr>
 *   <tr><td>credit report</td><td>10 per document per month</td><td>{@code credit:{account}:{doc}:{month}}</td></tr>
 *   <tr><td>SMS code</td><td>1 SMS credit: hold, post when accepted, release on outage, refund on failed delivery</td><td>{@code sms:{account}:{dispatch}}</td></tr>
 * </table>
 *
 * <p>Days and months are calendar days and months in {@link #ZONE America/Sao_Paulo}, read from the
 * injected clock. CPFs never appear in keys in clear: they are replaced by a SHA-256 digest
 * (pseudonymous; the ledger is not the place for personal data).
 */
public final class CostRules {
    /** The calendar of "same day" and "same month". */
    public static final ZoneId ZONE = SaoPauloTime.ZONE;

    public static final long PER_RECORD = 1;
    public static final long PER_LEAD = 1;
    public static final long ENRICHMENT = 5;
    public static final long PERSON_LOOKUP = 15;
    public static final long CREDIT_REPORT = 10;
    public static final long SMS_CODE = 1;

    private static final int MAX_REFERENCE = 100;

    private final Clock clock;

    public CostRules(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Today in America/Sao_Paulo by the injected clock. */
    public LocalDate today() {
        return LocalDate.ofInstant(clock.instant(), ZONE);
    }

    /**
     * A search page: 1 credit per record delivered ({@code retornados}); a count-only search delivers
     * none and costs 0, which the ledger writes nothing for.
     *
     * @param request a reference unique to this call (a request id, or the client's idempotency key)
     */
    public ChargeRequest search(AccountId account, String request, int delivered, boolean countOnly) {
        if (delivered < 0) {
            throw new IllegalArgumentException("delivered " + delivered + " must not be negative");
        }
        long amount = countOnly ? 0 : delivered * PER_RECORD;
        return charge(
                account,
                amount,
                "search:" + account + ":" + reference("request", request),
                countOnly ? "busca (apenas total)" : "busca: " + delivered + " registros");
    }

    /** A CNPJ lookup: 1 credit, free when the account already looked this CNPJ up today. */
    public ChargeRequest companyLookup(AccountId account, Cnpj cnpj) {
        return oncePerDay(account, cnpj, PER_RECORD, "lookup", "consulta CNPJ ");
    }

    /**
     * The hold a mailing export places at creation: its requested quantity, so parallel exports cannot
     * overdraw the balance. At completion, post {@link #mailingCost(long)} of the leads delivered; on
     * failure, release.
     */
    public HoldRequest mailingHold(AccountId account, String job, int quantity) {
        if (quantity < 1) {
            throw new IllegalArgumentException("mailing quantity " + quantity + " must be at least 1");
        }
        return new HoldRequest(
                account,
                CreditKind.CREDITS,
                quantity * PER_LEAD,
                IdempotencyKey.of("mailing:" + account + ":" + reference("job", job)),
                "mailing " + job + ": " + quantity + " leads");
    }

    /** What a finished mailing export charges: 1 credit per lead actually delivered. */
    public long mailingCost(long leadsDelivered) {
        if (leadsDelivered < 0) {
            throw new IllegalArgumentException("leads delivered " + leadsDelivered + " must not be negative");
        }
        return leadsDelivered * PER_LEAD;
    }

    /** Bureau enrichment: 5 credits, free when the account enriched this CNPJ today. */
    public ChargeRequest enrichment(AccountId account, Cnpj cnpj) {
        return oncePerDay(account, cnpj, ENRICHMENT, "enrich", "enriquecimento CNPJ ");
    }

    /** A synchronous person lookup: 15 credits on every call, a repeat of the same CPF included. */
    public ChargeRequest personLookup(AccountId account, String request) {
        return charge(
                account, PERSON_LOOKUP, "person:" + account + ":" + reference("request", request), "consulta pessoa");
    }

    /** An async person job: 15 credits once, when the lookup runs, however often the job is polled. */
    public ChargeRequest personJob(AccountId account, String job) {
        return charge(
                account,
                PERSON_LOOKUP,
                "person-job:" + account + ":" + reference("job", job),
                "consulta pessoa assincrona " + job);
    }

    /**
     * A batch person lookup: one 15-credit charge per distinct valid CPF, in the order of first
     * appearance. CPFs that fail validation are absent (not charged); duplicates appear once. The key
     * includes the batch, so a retried batch charges nothing again.
     *
     * @param cpfs the CPFs as the client sent them
     */
    public Map<Cpf, ChargeRequest> personBatch(AccountId account, String batch, List<String> cpfs) {
        String batchRef = reference("batch", batch);
        Map<Cpf, ChargeRequest> charges = new LinkedHashMap<>();
        for (int position = 0; position < cpfs.size(); position++) {
            String raw = cpfs.get(position);
            if (Cpf.parse(raw) instanceof Parsed.Valid<Cpf> valid && !charges.containsKey(valid.value())) {
                Cpf cpf = valid.value();
                charges.put(
                        cpf,
                        charge(
                                account,
                                PERSON_LOOKUP,
                                // The CPF's first position in the batch, not a digest of it: the key is
                                // stored with the audit row and exported, and an unkeyed hash of a CPF
                                // is reversed by trying the 10^9 of them.
                                "person-batch:" + account + ":" + batchRef + ":" + position,
                                "consulta pessoa em lote " + batch));
            }
        }
        return charges;
    }

    /** A credit report on a company: 10 credits once per CNPJ per calendar month. */
    public ChargeRequest creditReport(AccountId account, Cnpj cnpj) {
        return charge(
                account,
                CREDIT_REPORT,
                "credit:" + account + ":cnpj:" + cnpj.value() + ":" + YearMonth.from(today()),
                "relatorio de credito CNPJ " + cnpj.value());
    }

    /** A credit report on a person: 10 credits once per CPF per calendar month. */
    public ChargeRequest creditReport(AccountId account, Cpf cpf) {
        return charge(
                account,
                CREDIT_REPORT,
                "credit:" + account + ":cpf:" + digest("cpf:" + cpf.digits()) + ":" + YearMonth.from(today()),
                "relatorio de credito CPF " + cpf.masked());
    }

    /**
     * The SMS credit of one code, as a hold placed before calling the provider: post it ({@link
     * #SMS_CODE}) when the provider accepts the message, release it when the provider is unavailable
     * (nothing charged), and refund the post when the delivery later fails.
     */
    public HoldRequest smsCode(AccountId account, String dispatch) {
        return new HoldRequest(
                account,
                CreditKind.SMS_CREDITS,
                SMS_CODE,
                IdempotencyKey.of("sms:" + account + ":" + reference("dispatch", dispatch)),
                "codigo SMS " + dispatch);
    }

    /**
     * The same-day rule: {@code amount} once per account, CNPJ and calendar day, under the key {@code
     * {use}:{account}:{cnpj}:{day}}, described as {@code description} followed by the CNPJ.
     */
    private ChargeRequest oncePerDay(AccountId account, Cnpj cnpj, long amount, String use, String description) {
        return charge(
                account, amount, use + ":" + account + ":" + cnpj.value() + ":" + today(), description + cnpj.value());
    }

    /** A charge in credits (every charge is; the SMS credit is a hold, {@link #smsCode}). */
    private static ChargeRequest charge(AccountId account, long amount, String key, String description) {
        Objects.requireNonNull(account, "account");
        return new ChargeRequest(account, CreditKind.CREDITS, amount, IdempotencyKey.of(key), description);
    }

    private static String reference(String name, String value) {
        Objects.requireNonNull(value, name);
        if (value.isEmpty() || value.length() > MAX_REFERENCE) {
            throw new IllegalArgumentException(
                    name + " reference of " + value.length() + " characters: it must have 1 to " + MAX_REFERENCE);
        }
        int bad = Texts.firstNonPrintableAscii(value);
        if (bad < 0) {
            bad = value.indexOf(':');
        }
        if (bad >= 0) {
            throw new IllegalArgumentException(
                    name + " reference '" + value + "' has character " + (int) value.charAt(bad) + " at " + bad
                            + "; only printable ASCII without spaces or ':' is allowed");
        }
        return value;
    }

    private static String digest(String text) {
        return HexFormat.of().formatHex(Texts.sha256(text.getBytes(StandardCharsets.US_ASCII)), 0, 16);
    }
}
