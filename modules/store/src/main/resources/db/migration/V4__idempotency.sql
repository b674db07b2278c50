-- Client idempotency keys (Idempotency-Key), one row per account and key, bound to the fingerprint of
-- the request they were first used for. An attempt holds the row until locked_until; a completed one
-- keeps its answer (status, headers and body as the adapter encoded them) for replays. The row's id
-- is the ledger reference of the request, so a retry after a crash charges under the same key.
-- Rows are forgotten when their retention (24 hours by default) has passed.
CREATE TABLE idempotency_requests (
    id           bigserial   PRIMARY KEY,
    account_id   bigint      NOT NULL REFERENCES accounts (id),
    client_key   text        NOT NULL,
    fingerprint  text        NOT NULL,
    created_at   timestamptz NOT NULL,
    locked_until timestamptz,
    answer       bytea,
    completed_at timestamptz,
    UNIQUE (account_id, client_key),
    CHECK ((answer IS NULL) = (completed_at IS NULL))
);

CREATE INDEX idempotency_requests_created ON idempotency_requests (created_at);
