-- Admits many requests in one transaction (one commit), for the group-commit path of
-- PgAdmissionStore (ADR 0031). Each item is the single path's statement, each with a snapshot of its
-- own, so an item sees the counts of the items before it and a key that appears twice in a batch is
-- counted twice, as two requests alone would be. Items run in account order, and in arrival order
-- within an account (a key belongs to one account, so each key's and each account's requests keep
-- their order and their answers): batches of parallel queues then take the accounts' day rows in one
-- order and cannot deadlock on them. The counter rows it locks stay locked until the batch commits; a batch that fails (a deadlock against another
-- server's batch, a lost connection) counted nothing, and the caller admits its items one by one.
-- The key and the account are returned as whole rows, read in the same statement that counted.
CREATE FUNCTION admit_batch(
    p_prefix     text[],
    p_hash       bytea[],
    p_minute     bigint[],
    p_day        date[],
    p_per_minute bigint[])
RETURNS TABLE (item integer, k api_keys, a accounts, counted boolean, minute_count integer,
               day_count bigint, day_before bigint, minute_before integer)
LANGUAGE plpgsql AS $$
DECLARE
    i integer;
BEGIN
    FOR i IN
        SELECT s.i FROM generate_subscripts(p_prefix, 1) s(i)
          LEFT JOIN api_keys ok ON ok.prefix = p_prefix[s.i]
         ORDER BY ok.account_id NULLS LAST, s.i
    LOOP
        RETURN QUERY
        WITH c AS (
            SELECT ck.prefix, ck.account_id, ca.daily_request_limit
              FROM api_keys ck JOIN accounts ca ON ca.id = ck.account_id
             WHERE ck.prefix = p_prefix[i] AND ck.secret_hash = p_hash[i] AND ck.revoked_at IS NULL
               AND ca.api_enabled),
        m AS (
            INSERT INTO rate_minute (key_prefix, epoch_minute, requests)
            SELECT c.prefix, p_minute[i], 1 FROM c
             WHERE coalesce((SELECT r.requests FROM rate_day r WHERE r.account_id = c.account_id
                              AND r.day = p_day[i]), 0) < c.daily_request_limit
            ON CONFLICT (key_prefix, epoch_minute) DO UPDATE SET requests = rate_minute.requests + 1
             WHERE rate_minute.requests < p_per_minute[i]
            RETURNING rate_minute.requests),
        d AS (
            INSERT INTO rate_day (account_id, day, requests)
            SELECT c.account_id, p_day[i], 1 FROM c, m
            ON CONFLICT (account_id, day) DO UPDATE SET requests = rate_day.requests + 1
             WHERE rate_day.requests < (SELECT c.daily_request_limit FROM c)
            RETURNING rate_day.requests)
        SELECT i, kk, aa,
               EXISTS (SELECT 1 FROM c),
               (SELECT m.requests FROM m),
               (SELECT d.requests FROM d),
               (SELECT r.requests FROM rate_day r WHERE r.account_id = kk.account_id AND r.day = p_day[i]),
               (SELECT r.requests FROM rate_minute r WHERE r.key_prefix = kk.prefix
                   AND r.epoch_minute = p_minute[i])
          FROM api_keys kk JOIN accounts aa ON aa.id = kk.account_id
         WHERE kk.prefix = p_prefix[i];
    END LOOP;
END $$;
