-- The batch lookup's charges (ledger_charge_in_order, V15) spent most of their time on per-row work
-- around the 1,000 entries they write, not on the writes (ADR 0049, measured in
-- benchmarks/history/2026-11-28-lote2.md):
--   * the foreign key from ledger_entries to balances ran its check, one query, once per row: a batch of
--     1,000 entries of one balance ran it 1,000 times on the one row the function had already locked.
--     It becomes one check per statement over the statement's new rows (a transition table), with the
--     same effect: an entry whose balance does not exist is refused with the foreign key's SQLSTATE
--     23503, and the balances it names are locked FOR KEY SHARE until the end of the transaction, as the
--     foreign key locked them; the other side of the foreign key, a balance deleted or re-keyed while
--     entries name it, is refused by a trigger on balances;
--   * the used keys were found by one EXISTS per item, evaluated twice per row; they are now found by one
--     probe of the unique index with all the batch's keys (= ANY), joined to the items once.
-- Every rule is unchanged: replays are free whatever the balance, the new items are charged in order
-- while the available balance covers them and none after the first it does not cover, the balance row is
-- locked first, and each entry carries its running balance, written in the items' order.

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_id_kind_fkey;

CREATE FUNCTION ledger_entries_have_balances() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_missing record;
BEGIN
    SELECT n.account_id, n.kind INTO v_missing
      FROM (SELECT DISTINCT e.account_id, e.kind FROM new_entries e) n
      LEFT JOIN LATERAL (
          SELECT 1 AS found FROM balances b
           WHERE b.account_id = n.account_id AND b.kind = n.kind
             FOR KEY SHARE) b ON true
     WHERE b.found IS NULL
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger entry of account % names no % balance', v_missing.account_id, v_missing.kind
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_entries_have_balances
    AFTER INSERT ON ledger_entries
    REFERENCING NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_have_balances();

CREATE FUNCTION balances_keep_their_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (TG_OP = 'DELETE' OR (NEW.account_id, NEW.kind) IS DISTINCT FROM (OLD.account_id, OLD.kind))
       AND EXISTS (SELECT 1 FROM ledger_entries e WHERE e.account_id = OLD.account_id AND e.kind = OLD.kind) THEN
        RAISE EXCEPTION 'the % balance of account % has ledger entries: % refused', OLD.kind, OLD.account_id, TG_OP
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER balances_keep_their_entries
    BEFORE DELETE OR UPDATE OF account_id, kind ON balances
    FOR EACH ROW EXECUTE FUNCTION balances_keep_their_entries();

-- Same signature and answers as V15's.
CREATE OR REPLACE FUNCTION ledger_charge_in_order(
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
    used AS MATERIALIZED (
        SELECT e.idem_key FROM ledger_entries e WHERE e.account_id = p_account AND e.idem_key = ANY (p_key)),
    summed AS MATERIALIZED (
        SELECT i.n, i.amount, i.k, i.d, u.idem_key IS NOT NULL AS used,
               (sum(i.amount) FILTER (WHERE u.idem_key IS NULL) OVER (ORDER BY i.n))::bigint AS cum
          FROM input i LEFT JOIN used u ON u.idem_key = i.k),
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
