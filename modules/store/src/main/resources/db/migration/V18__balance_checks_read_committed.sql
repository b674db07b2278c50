-- V17's trigger on balances (a balance with ledger entries is never deleted or re-keyed) looks for the
-- entries with the statement's snapshot. Under READ COMMITTED that snapshot is taken after the row lock
-- the delete waited for, so an entry committed meanwhile is seen; under REPEATABLE READ or SERIALIZABLE
-- it is the transaction's first snapshot, and an entry committed since would be missed (found by review
-- on PostgreSQL 15: the foreign key V17 replaced refused that case). The application never deletes or
-- re-keys a balance and runs at READ COMMITTED; an operator's session at another level is now refused
-- instead of trusted.
CREATE OR REPLACE FUNCTION balances_keep_their_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (TG_OP = 'DELETE' OR (NEW.account_id, NEW.kind) IS DISTINCT FROM (OLD.account_id, OLD.kind)) THEN
        IF current_setting('transaction_isolation') <> 'read committed' THEN
            RAISE EXCEPTION 'a balance is deleted or re-keyed only at READ COMMITTED (this transaction is %)',
                current_setting('transaction_isolation')
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM ledger_entries e WHERE e.account_id = OLD.account_id AND e.kind = OLD.kind) THEN
            RAISE EXCEPTION 'the % balance of account % has ledger entries: % refused', OLD.kind, OLD.account_id, TG_OP
                USING ERRCODE = 'foreign_key_violation';
        END IF;
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
