-- The batch CNPJ lookup (POST /v1/empresas/lote): the account's contracted ceiling, like the person
-- batch's, and a ledger function that charges one account's items in their order in one statement.
ALTER TABLE accounts
    ADD COLUMN company_batch_limit integer NOT NULL DEFAULT 1000 CHECK (company_batch_limit >= 1);

-- Charges the items of one balance in their order, in one transaction: an item whose key was charged
-- before (by a single lookup the same day, say) is a replay, free whatever the balance; the other items
-- are charged while the available balance covers them, and from the first one it does not cover, no
-- item is charged (amounts are positive, so the charged ones are a prefix of the new ones). The
-- balance row is locked first, so two calls on one account run one after the other, and the second
-- one's statements (each with a new snapshot) see the first one's entries as replays: two identical
-- batches at once charge each key once. Keys must be distinct within a call.
CREATE FUNCTION ledger_charge_in_order(
    p_account     bigint,
    p_kind        text,
    p_amount      bigint[],
    p_key         text[],
    p_description text[],
    p_at          timestamptz)
RETURNS TABLE (item integer, outcome text, balance bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_posted    bigint;
    v_available bigint;
BEGIN
    SELECT b.posted, b.posted - b.held INTO v_posted, v_available
      FROM balances b WHERE b.account_id = p_account AND b.kind = p_kind FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no % balance for account %', p_kind, p_account USING ERRCODE = 'no_data_found';
    END IF;
    RETURN QUERY
    WITH input AS (
        SELECT u.n::integer AS n, u.a AS amount, u.k AS k, u.d AS d
          FROM unnest(p_amount, p_key, p_description) WITH ORDINALITY AS u(a, k, d, n)),
    marked AS (
        SELECT i.n, i.amount, i.k, i.d,
               EXISTS (SELECT 1 FROM ledger_entries e WHERE e.account_id = p_account AND e.idem_key = i.k) AS used
          FROM input i),
    summed AS (
        SELECT m.n, m.amount, m.k, m.d, m.used,
               (sum(m.amount) FILTER (WHERE NOT m.used) OVER (ORDER BY m.n))::bigint AS cum
          FROM marked m),
    entries AS (
        INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key, description, created_at, balance_after)
        SELECT p_account, p_kind, 'CHARGE', -s.amount, s.k, s.d, p_at, v_posted - s.cum
          FROM summed s WHERE NOT s.used AND s.cum <= v_available ORDER BY s.n
        RETURNING 1),
    debit AS (
        UPDATE balances SET posted = posted
               - coalesce((SELECT sum(s.amount) FROM summed s WHERE NOT s.used AND s.cum <= v_available), 0)
         WHERE account_id = p_account AND kind = p_kind
        RETURNING posted)
    SELECT s.n,
           CASE WHEN s.used THEN 'REPLAY' WHEN s.cum <= v_available THEN 'CHARGED' ELSE 'INSUFFICIENT' END,
           CASE WHEN NOT s.used AND s.cum <= v_available THEN v_posted - s.cum ELSE d.posted END
      FROM summed s CROSS JOIN debit d
     ORDER BY s.n;
END
$$;
