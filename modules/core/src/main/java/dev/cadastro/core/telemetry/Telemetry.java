package dev.cadastro.core.telemetry;

import java.util.Set;

/**
 * Port: the events Cadastro reports for monitoring. Each method is called on the thread that did the
 * work, so an implementation must be cheap and thread-safe and must never throw; every method does
 * nothing by default, so {@link #NONE} costs a virtual call.
 *
 * <p>The events are the domain's: a request refused by a limit, credits charged, a ledger entry written,
 * a delivery attempt's outcome. How a request was answered on the wire (its method, route and status)
 * is the HTTP edge's event, reported there (ADR 0043). Labels are closed sets: never a CNPJ, a CPF, a
 * phone or a key an operator typed.
 */
public interface Telemetry {
    /** Reports nothing. */
    Telemetry NONE = new Telemetry() {};

    /**
     * A request refused by a rate limit.
     *
     * @param code {@code LIMITE_MINUTO} or {@code LIMITE_DIARIO}
     */
    default void rateLimitRefused(String service, String code) {}

    /**
     * Credits taken from a balance by a committed or committing ledger entry (a charge, or a hold's post).
     *
     * @param operation the operation word of the entry's key ({@link #operationOf(String)})
     * @param kind {@code CREDITS} or {@code SMS_CREDITS}
     */
    default void creditsCharged(String operation, String kind, long credits) {}

    /**
     * One ledger entry written.
     *
     * @param type the entry type: {@code CHARGE}, {@code HOLD_POST}, {@code TOP_UP} or {@code REFUND}
     *     (placing or releasing a hold writes no entry)
     */
    default void ledgerEntryWritten(String type) {}

    /**
     * One webhook attempt of a push delivery ended.
     *
     * @param outcome {@code DELIVERED}, {@code STATUS}, {@code REDIRECT}, {@code TIMEOUT} or {@code
     *     CONNECTION}
     */
    default void pushAttempted(String outcome) {}

    /** The operation words of the ledger keys the cost rules build; any other key is {@code outra}. */
    Set<String> OPERATIONS =
            Set.of("search", "lookup", "mailing", "enrich", "person", "person-job", "person-batch", "credit", "sms");

    /**
     * The operation of a ledger key: its first word when it is one of {@link #OPERATIONS} ({@code lookup}
     * of {@code lookup:42:12345678000195:2026-11-20}), otherwise {@code outra}, so a key an operator
     * typed never becomes a label.
     */
    static String operationOf(String key) {
        int colon = key.indexOf(':');
        String word = colon < 0 ? key : key.substring(0, colon);
        return OPERATIONS.contains(word) ? word : "outra";
    }
}
