-- The dispatch's own statements (the acceptance, the check, the receipts) find it by public_id and
-- account_id. On a new database, before autovacuum first analyzes the table, the planner has no
-- statistics: it costs a scan of the throttle or retry index on account_id (PostgreSQL 18 also skips
-- over a leading column) the same as the unique public_id, and the generic plan it then caches for the
-- connection's life reads every dispatch of the account on each check (benchmarks/RESULTS.md, "sms:
-- plans on a new database"). No index of sms_dispatches holds account_id any more, so public_id's
-- unique index is the only path for those statements whatever the statistics say. The throttle and
-- the retried send check the account on the few rows their index finds: the sends of every account
-- to one phone in the last hour, the rows of one request reference (unique to the request in
-- practice: "idem." and an idempotency row id, or "r." and a request id).
--
-- The foreign key to accounts has no index on its side now: accounts are never deleted (an account
-- is closed by turning its API off), so nothing looks dispatches up by account alone.
--
-- On an existing database this script rebuilds two indexes in its transaction: sends, checks and
-- receipts wait for the builds, which take longer the more dispatches the table holds; start the
-- first server of this version when SMS traffic can pause that long.
DROP INDEX sms_dispatches_client_ref;
CREATE INDEX sms_dispatches_client_ref ON sms_dispatches (client_ref);

DROP INDEX sms_dispatches_throttle;
CREATE INDEX sms_dispatches_throttle ON sms_dispatches (phone_key, created_at DESC)
    WHERE delivery <> 'indisponivel';
