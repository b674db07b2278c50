-- The dispatch's own statements (the acceptance, the check, the receipts) find it by public_id and
-- account_id. On a new database, before autovacuum first analyzes the table, the planner has no
-- statistics: it costs a scan of the throttle or retry index on account_id (PostgreSQL 18 also skips
-- over a leading column) the same as the unique public_id, and the generic plan it then caches for the
-- connection's life reads every dispatch of the account on each check (benchmarks/RESULTS.md, "sms:
-- plans on a new database"). No index but the primary key and public_id now holds account_id, so the
-- unique index is the only path for those statements whatever the statistics say. The throttle and
-- the retried send check the account on the few rows their index finds: a phone's sends of the last
-- hour, a request's reference (unique to the request in practice).
DROP INDEX sms_dispatches_client_ref;
CREATE INDEX sms_dispatches_client_ref ON sms_dispatches (client_ref);

DROP INDEX sms_dispatches_throttle;
CREATE INDEX sms_dispatches_throttle ON sms_dispatches (phone_key, created_at DESC)
    WHERE delivery <> 'indisponivel';
