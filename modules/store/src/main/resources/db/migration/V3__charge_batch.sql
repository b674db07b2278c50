-- Charges many requests in one transaction (one WAL flush), for the batching path of PgLedger.
-- Items are applied in (account, kind) order, then in arrival order, so concurrent batches lock
-- balance rows in one global order and cannot deadlock. Each item is the same conditional debit as
-- the single-statement path; a key used before (committed, or earlier in this batch) is reported as
-- a replay. A unique violation (a concurrent first use of a key) fails the whole batch, and the
-- caller then applies its items one by one.
CREATE FUNCTION ledger_charge_batch(
    p_account     bigint[],
    p_kind        text[],
    p_amount      bigint[],
    p_key         text[],
    p_description text[],
    p_at          timestamptz)
RETURNS TABLE (item integer, outcome text, balance bigint, available bigint, used_amount bigint, used_kind text)
LANGUAGE plpgsql AS $$
DECLARE
    i        integer;
    new_posted bigint;
BEGIN
    FOR i IN
        SELECT o.n FROM unnest(p_account, p_kind) WITH ORDINALITY AS o(a, k, n) ORDER BY o.a, o.k, o.n
    LOOP
        item := i;
        UPDATE balances SET posted = posted - p_amount[i]
         WHERE account_id = p_account[i] AND kind = p_kind[i] AND posted - held >= p_amount[i]
           AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.account_id = p_account[i] AND e.idem_key = p_key[i])
        RETURNING posted INTO new_posted;
        IF FOUND THEN
            INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key, description, created_at, balance_after)
            VALUES (p_account[i], p_kind[i], 'CHARGE', -p_amount[i], p_key[i], p_description[i], p_at, new_posted);
            outcome := 'CHARGED';
            balance := new_posted;
            available := NULL;
            used_amount := NULL;
            used_kind := NULL;
        ELSE
            SELECT b.posted, b.posted - b.held, e.amount, e.kind
              INTO balance, available, used_amount, used_kind
              FROM balances b
              LEFT JOIN ledger_entries e ON e.account_id = b.account_id AND e.idem_key = p_key[i]
             WHERE b.account_id = p_account[i] AND b.kind = p_kind[i];
            IF NOT FOUND THEN
                outcome := 'NO_ACCOUNT';
            ELSIF used_amount IS NOT NULL THEN
                outcome := 'REPLAY';
            ELSE
                outcome := 'INSUFFICIENT';
            END IF;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;
