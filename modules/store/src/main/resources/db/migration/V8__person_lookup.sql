-- Person lookup (company-data 2.4, 3, 4.10-4.13): the audit trail and the async jobs.
-- Invariants the database itself enforces, whatever the code does:
--   * audit rows are never updated, deleted or truncated (triggers);
--   * every audit row pairs with exactly one ledger entry: its (account, charge key) references the
--     entry, and is unique, so a charge has at most one row and a row always has its charge;
--   * the trail holds no CPF or phone: only a keyed hash (HMAC-SHA256) with the id of its key;
--   * a job keeps its subject (the CPF or phone to look up) only while unfinished.

CREATE TABLE person_audit (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id           bigint      NOT NULL REFERENCES accounts (id),
    key_prefix           text        NOT NULL,
    purpose              text        NOT NULL CHECK (purpose IN ('ANALISE_CREDITO', 'KYC_CADASTRO', 'COBRANCA_DIVIDA_PROPRIA', 'PREVENCAO_FRAUDE')),
    justification        text        NOT NULL CHECK (length(justification) BETWEEN 1 AND 500),
    justification_source text        NOT NULL CHECK (justification_source IN ('ENVIADA', 'PADRAO_CONTA', 'PADRAO_FINALIDADE')),
    subject_kind         text        NOT NULL CHECK (subject_kind IN ('CPF', 'TELEFONE')),
    subject_key_id       text        NOT NULL,
    subject_hash         bytea       NOT NULL CHECK (length(subject_hash) = 32),
    fields               text[]      NOT NULL,
    request_id           text        NOT NULL,
    charge_key           text        NOT NULL,
    created_at           timestamptz NOT NULL,
    CONSTRAINT person_audit_once_per_charge UNIQUE (account_id, charge_key),
    CONSTRAINT person_audit_pairs_a_charge FOREIGN KEY (account_id, charge_key)
        REFERENCES ledger_entries (account_id, idem_key)
);
CREATE INDEX person_audit_by_account_time ON person_audit (account_id, created_at);
CREATE INDEX person_audit_by_subject ON person_audit (subject_hash);

CREATE FUNCTION person_audit_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the person audit trail is append-only: % refused', TG_OP;
END
$$;
CREATE TRIGGER person_audit_append_only
    BEFORE UPDATE OR DELETE ON person_audit
    FOR EACH ROW EXECUTE FUNCTION person_audit_is_append_only();
CREATE TRIGGER person_audit_no_truncate
    BEFORE TRUNCATE ON person_audit
    FOR EACH STATEMENT EXECUTE FUNCTION person_audit_is_append_only();

CREATE TABLE person_jobs (
    id                      text        PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    account_id              bigint      NOT NULL REFERENCES accounts (id),
    subject_kind            text        CHECK (subject_kind IN ('CPF', 'TELEFONE')),
    subject                 text,
    purpose                 text        NOT NULL,
    justification           text        NOT NULL,
    justification_source    text        NOT NULL,
    justification_discarded text,
    state                   text        NOT NULL CHECK (state IN ('PENDENTE', 'PROCESSANDO', 'CONCLUIDO', 'SEM_DADOS')),
    claim                   text,
    lease_until             timestamptz,
    finished_at             timestamptz,
    created_at              timestamptz NOT NULL,
    expires_at              timestamptz NOT NULL,
    CONSTRAINT person_job_subject_only_while_unfinished
        CHECK ((state IN ('CONCLUIDO', 'SEM_DADOS')) = (subject IS NULL AND subject_kind IS NULL))
);
CREATE INDEX person_jobs_by_expiry ON person_jobs (expires_at);
