package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Port: the credit ledger. Every change of a balance is an immutable entry written in the same
 * transaction as the balance, under an idempotency key unique per account, so:
 *
 * <ul>
 *   <li>a replayed key changes nothing and reports {@code replay = true}, however many servers and
 *       threads replay it at once;
 *   <li>a balance never goes below zero, and charges and holds together never take more than it;
 *   <li>the posted balance always equals the sum of the account's entries of that kind.
 * </ul>
 *
 * Methods that address a missing account throw {@link dev.cadastro.core.error.NotFoundException}.
 */
public interface Ledger {

    /**
     * Charges once per key. A zero amount writes nothing and returns the current balance.
     *
     * @throws InsufficientCreditsException when the available balance (posted minus held) does not cover
     *     the amount; nothing is charged. A replay never throws this: it reports {@code replay = true}.
     */
    ChargeResult charge(ChargeRequest request);

    /**
     * Whether {@link #charge} of this request would succeed now: its key was already charged (a replay,
     * free), or the available balance covers the amount. A use case asks before it pays an outside
     * provider for an answer the account could not buy; the answer may change before the charge, which
     * stays the authority.
     */
    boolean affordable(ChargeRequest request);

    /**
     * {@link #affordable}, or the refusal a use case gives before it pays an outside provider: the amount
     * and what the balance has available now.
     *
     * @throws InsufficientCreditsException when the request is not affordable now
     */
    default void requireAffordable(ChargeRequest request) {
        if (!affordable(request)) {
            throw new InsufficientCreditsException(
                    request.account(),
                    request.kind(),
                    request.amount(),
                    balance(request.account(), request.kind()).available());
        }
    }

    /**
     * Charges requests of one account's balance in their order, as {@link #charge} each: a request whose
     * key was charged before is a replay (free, whatever the balance); the others are charged while the
     * available balance covers them, and from the first one it does not cover no other new request is
     * charged. One result per request, in order: empty for a request that was not charged.
     *
     * <p>This default charges one request at a time (a top-up in between may then let a later request
     * through after an earlier one was refused); a store implements it in one transaction, so that the
     * charged new requests are exactly a prefix of the new ones.
     *
     * @throws IllegalArgumentException when the requests are not all of one account and kind, or two share
     *     a key
     */
    default List<Optional<ChargeResult>> chargeInOrder(List<ChargeRequest> requests) {
        ChargeRequest.requireOneBalance(requests);
        List<Optional<ChargeResult>> out = new ArrayList<>(requests.size());
        for (ChargeRequest r : requests) {
            try {
                out.add(Optional.of(charge(r)));
            } catch (InsufficientCreditsException e) {
                out.add(Optional.empty());
            }
        }
        return out;
    }

    /** Adds bought credits once per key. */
    CreditResult topUp(AccountId account, CreditKind kind, long amount, IdempotencyKey key, String description);

    /**
     * Reserves credits once per key: the hold counts against the available balance until posted or
     * released. Placing a hold whose key exists returns the existing hold unchanged.
     *
     * @throws InsufficientCreditsException when the available balance does not cover the amount
     */
    Hold hold(HoldRequest request);

    /**
     * Settles a hold: charges {@code amount} (at most what was held; 0 allowed) as one entry under the
     * hold's key and releases the rest. Posting a posted hold is a replay.
     *
     * @throws dev.cadastro.core.error.NotFoundException when the hold does not exist
     * @throws IllegalStateException when the hold was released, or the amount exceeds the hold
     */
    ChargeResult post(AccountId account, IdempotencyKey holdKey, long amount);

    /**
     * Releases a hold without charging. Releasing a released hold changes nothing.
     *
     * @throws dev.cadastro.core.error.NotFoundException when the hold does not exist
     * @throws IllegalStateException when the hold was posted
     */
    Hold release(AccountId account, IdempotencyKey holdKey);

    Optional<Hold> findHold(AccountId account, IdempotencyKey holdKey);

    /**
     * Returns the credits of an earlier charge or hold post (a failed SMS delivery), once: the refund
     * entry's key is {@code refund:} plus the charge's key.
     *
     * @throws dev.cadastro.core.error.NotFoundException when no debit has that key
     */
    CreditResult refund(AccountId account, IdempotencyKey chargeKey, String reason);

    Balance balance(AccountId account, CreditKind kind);

    /**
     * The latest {@code limit} entries of one balance, oldest first, each with the running balance after
     * it (the first line's running balance includes every older entry).
     */
    List<StatementLine> statement(AccountId account, CreditKind kind, int limit);
}
