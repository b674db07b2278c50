-- The call-records service: integrations (one contact-center client each), their bearer tokens,
-- the calls ingested from the telephone exchange, and the push outbox.
--
-- Times are timestamptz (microsecond precision); the list's keyset is (classified_at, id), compared
-- with full precision, so calls that share a second or a microsecond are neither skipped nor repeated.
CREATE TABLE call_integrations (
    id          bigserial   PRIMARY KEY,
    name        text        NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
    created_at  timestamptz NOT NULL
);

-- Tokens: 256-bit random, shown once; only their SHA-256 is kept. Rotation inserts the new token and
-- revokes the old ones in one transaction.
CREATE TABLE call_tokens (
    id              bigserial   PRIMARY KEY,
    integration_id  bigint      NOT NULL REFERENCES call_integrations (id),
    token_hash      bytea       NOT NULL UNIQUE,
    prefix          text        NOT NULL,
    created_at      timestamptz NOT NULL,
    revoked_at      timestamptz
);
CREATE INDEX call_tokens_integration ON call_tokens (integration_id);

CREATE TABLE calls (
    integration_id      bigint      NOT NULL REFERENCES call_integrations (id),
    -- Byte order (C collation), so the list's order in PostgreSQL is the order of CallPosition.LIST_ORDER
    -- (String.compareTo on the ASCII ids) and a keyset comparison never depends on the server's locale.
    id                  text        COLLATE "C" NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    occurrence_id       text        NOT NULL,
    agent_id            text,
    agent_login         text        NOT NULL,
    agent_name          text,
    queue               text        NOT NULL,
    result_code         text,
    result_description  text        NOT NULL,
    classified_at       timestamptz NOT NULL,
    started_at          timestamptz NOT NULL,
    duration_seconds    integer     NOT NULL CHECK (duration_seconds >= 0),
    archived_at         timestamptz,
    recording_key       text        NOT NULL,
    ingested_at         timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    PRIMARY KEY (integration_id, id)
);
-- The list: ready calls of one integration, newest first by (classified_at, id).
CREATE INDEX calls_list ON calls (integration_id, classified_at DESC, id DESC) WHERE archived_at IS NOT NULL;
-- The same order under each exact filter (agente, fila, resultado), so a filtered page also reads only
-- its own rows however rare the filtered value is; other filters combined with one are checked on its rows.
CREATE INDEX calls_list_agent ON calls (integration_id, agent_login, classified_at DESC, id DESC)
    WHERE archived_at IS NOT NULL;
CREATE INDEX calls_list_queue ON calls (integration_id, queue, classified_at DESC, id DESC)
    WHERE archived_at IS NOT NULL;
CREATE INDEX calls_list_result ON calls (integration_id, result_description, classified_at DESC, id DESC)
    WHERE archived_at IS NOT NULL;

-- Push destination per integration (at most one).
CREATE TABLE call_push_destinations (
    integration_id      bigint      PRIMARY KEY REFERENCES call_integrations (id),
    url                 text        NOT NULL,
    header_name         text        NOT NULL,
    header_value        text        NOT NULL,
    resend_reclassified boolean     NOT NULL,
    signing_secret      text,
    enabled             boolean     NOT NULL,
    updated_at          timestamptz NOT NULL
);

-- The outbox: one row per delivery (a call that became ready, or was reclassified and the destination
-- wants resends), written in the same transaction as the call's change. Workers claim pending rows
-- whose next_attempt_at has come and whose lease is free (FOR UPDATE SKIP LOCKED); no lock is held
-- across the HTTP call. webhook_id is stable across the retries of one delivery.
CREATE TABLE call_deliveries (
    id               bigserial   PRIMARY KEY,
    integration_id   bigint      NOT NULL REFERENCES call_integrations (id),
    call_id          text        COLLATE "C" NOT NULL,
    webhook_id       text        NOT NULL UNIQUE,
    reason           text        NOT NULL CHECK (reason IN ('pronta', 'reclassificada', 'reenvio')),
    state            text        NOT NULL CHECK (state IN ('pendente', 'entregue', 'falhou')),
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL,
    lease_owner      text,
    lease_until      timestamptz,
    created_at       timestamptz NOT NULL,
    ready_at         timestamptz NOT NULL,
    delivered_at     timestamptz,
    last_status      integer,
    last_error       text,
    FOREIGN KEY (integration_id, call_id) REFERENCES calls (integration_id, id)
);
-- The claim reads one lane per integration: its due rows in order, in their own index range.
CREATE INDEX call_deliveries_due ON call_deliveries (integration_id, next_attempt_at, id) WHERE state = 'pendente';
CREATE INDEX call_deliveries_integration ON call_deliveries (integration_id, id);
-- The deliveries in flight (leased), counted per integration at each claim to keep a slow receiver
-- within its cap; few rows at any time, so the count is cheap.
CREATE INDEX call_deliveries_leased ON call_deliveries (integration_id)
    WHERE state = 'pendente' AND lease_owner IS NOT NULL;
-- Every delivery is updated two or three times within seconds of its insert: vacuum and analyze the
-- outbox after 2 % of it changed rather than the default 20 %, so dead index entries and stale
-- statistics do not slow the claims down.
ALTER TABLE call_deliveries SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);

-- Ingest ticks: how far each call source has been ingested. A server takes a tick under a lease
-- (the source may be an outside exchange, so no lock is held while it is read), ingests the changes
-- in (ingested_until, now], and moves ingested_until forward once they committed (a tick that failed
-- half-way is read again by the next one; ingest is idempotent by call id).
CREATE TABLE call_ingest_sources (
    source          text        PRIMARY KEY,
    ingested_until  timestamptz NOT NULL,
    lease_owner     text,
    lease_until     timestamptz
);

-- Records a source gave that could not be ingested (they broke a rule, or the store refused them):
-- skipped so the source moves on, and kept here with why, so none is lost. The record is kept as text,
-- control characters escaped (\uXXXX), since a NUL character is one reason to be here.
CREATE TABLE call_ingest_rejects (
    id           bigserial   PRIMARY KEY,
    source       text        NOT NULL,
    call_id      text        NOT NULL,
    reason       text        NOT NULL,
    record       text        NOT NULL,
    rejected_at  timestamptz NOT NULL
);
CREATE INDEX call_ingest_rejects_source ON call_ingest_rejects (source, rejected_at);
