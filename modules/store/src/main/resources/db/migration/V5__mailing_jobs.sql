-- Mailing export jobs, also the queue their workers claim from. A worker claims a processing job whose
-- lease is free or ran out (FOR UPDATE SKIP LOCKED), renews lease_until while it works, and ends the
-- job in one transaction with its ledger hold: completion posts the hold (the leads delivered) and
-- failure releases it. attempts counts claims that did not end, so a job that kills its servers fails.
CREATE TABLE mailing_jobs (
    id             bigserial   PRIMARY KEY,
    public_id      text        NOT NULL UNIQUE,
    account_id     bigint      NOT NULL REFERENCES accounts (id),
    state          text        NOT NULL CHECK (state IN ('processando', 'concluido', 'falhou')),
    filters        text        NOT NULL,
    quantidade     integer     NOT NULL CHECK (quantidade BETWEEN 1 AND 50000),
    leads_limit    integer     NOT NULL CHECK (leads_limit BETWEEN 0 AND quantidade),
    formato        text        NOT NULL CHECK (formato IN ('csv', 'xlsx')),
    hold_key       text        NOT NULL,
    created_at     timestamptz NOT NULL,
    attempts       integer     NOT NULL DEFAULT 0,
    lease_owner    text,
    lease_until    timestamptz,
    delivered      integer,
    charged        bigint,
    file_key       text,
    file_bytes     bigint,
    expires_at     timestamptz,
    file_removed_at timestamptz,
    error_code     text,
    error_message  text,
    finished_at    timestamptz,
    CHECK ((state = 'processando') = (finished_at IS NULL)),
    CHECK (state <> 'concluido' OR (delivered IS NOT NULL AND file_key IS NOT NULL AND expires_at IS NOT NULL)),
    CHECK (state <> 'falhou' OR error_code IS NOT NULL),
    UNIQUE (account_id, hold_key)
);

CREATE INDEX mailing_jobs_queue ON mailing_jobs (id) WHERE state = 'processando';
CREATE INDEX mailing_jobs_account ON mailing_jobs (account_id, id);
CREATE INDEX mailing_jobs_expiry ON mailing_jobs (expires_at) WHERE state = 'concluido' AND file_removed_at IS NULL;
