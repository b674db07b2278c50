-- Accounts, API keys, the credit ledger and holds.
-- Invariants the database itself enforces, whatever the code does:
--   * a balance never goes below zero and holds never exceed it (balances CHECK);
--   * an idempotency key is used at most once per account (ledger_entries and holds UNIQUE);
--   * ledger entries are never updated or deleted (trigger).

CREATE TABLE accounts (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name                  text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    plan_name             text        NOT NULL CHECK (length(plan_name) BETWEEN 1 AND 64),
    daily_request_limit   bigint      NOT NULL CHECK (daily_request_limit >= 1),
    api_enabled           boolean     NOT NULL DEFAULT true,
    accreditation         text        NOT NULL DEFAULT 'PENDING' CHECK (accreditation IN ('PENDING', 'APPROVED')),
    default_justification text,
    person_batch_limit    integer     NOT NULL DEFAULT 100 CHECK (person_batch_limit >= 1),
    created_at            timestamptz NOT NULL
);

CREATE TABLE account_purposes (
    account_id bigint NOT NULL REFERENCES accounts (id),
    purpose    text   NOT NULL CHECK (purpose IN ('ANALISE_CREDITO', 'KYC_CADASTRO', 'COBRANCA_DIVIDA_PROPRIA', 'PREVENCAO_FRAUDE')),
    fields     text[] NOT NULL CHECK (cardinality(fields) >= 1),
    PRIMARY KEY (account_id, purpose)
);

CREATE TABLE api_keys (
    prefix                 text        PRIMARY KEY,
    account_id             bigint      NOT NULL REFERENCES accounts (id),
    label                  text        NOT NULL,
    secret_hash            bytea       NOT NULL CHECK (length(secret_hash) = 32),
    scopes                 text[]      NOT NULL,
    person_lookup_released boolean     NOT NULL DEFAULT false,
    created_at             timestamptz NOT NULL,
    revoked_at             timestamptz
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, created_at DESC);

-- One row per account and kind: the posted balance (sum of the entries) and what open holds reserve.
-- Every ledger change locks this row first, so changes of one balance are serialized in one order.
CREATE TABLE balances (
    account_id bigint NOT NULL REFERENCES accounts (id),
    kind       text   NOT NULL CHECK (kind IN ('CREDITS', 'SMS_CREDITS')),
    posted     bigint NOT NULL DEFAULT 0,
    held       bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, kind),
    CONSTRAINT balance_never_overdrawn CHECK (held >= 0 AND posted >= held)
);

CREATE TABLE ledger_entries (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id    bigint      NOT NULL,
    kind          text        NOT NULL,
    type          text        NOT NULL CHECK (type IN ('TOP_UP', 'CHARGE', 'HOLD_POST', 'REFUND', 'ADJUSTMENT')),
    amount        bigint      NOT NULL CHECK (amount <> 0),
    idem_key      text        NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 200),
    description   text        NOT NULL,
    created_at    timestamptz NOT NULL,
    balance_after bigint      NOT NULL CHECK (balance_after >= 0),
    FOREIGN KEY (account_id, kind) REFERENCES balances (account_id, kind),
    CONSTRAINT ledger_entry_once_per_key UNIQUE (account_id, idem_key)
);
CREATE INDEX ledger_entries_statement ON ledger_entries (account_id, kind, id);

CREATE FUNCTION ledger_entries_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are immutable: % refused on entry %', TG_OP, OLD.id;
END
$$;
CREATE TRIGGER ledger_entries_immutable
    BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_are_immutable();

CREATE TABLE holds (
    account_id    bigint      NOT NULL,
    idem_key      text        NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 200),
    kind          text        NOT NULL,
    amount        bigint      NOT NULL CHECK (amount > 0),
    state         text        NOT NULL CHECK (state IN ('HELD', 'POSTED', 'RELEASED')),
    posted_amount bigint      CHECK (posted_amount >= 0 AND posted_amount <= amount),
    description   text        NOT NULL,
    created_at    timestamptz NOT NULL,
    settled_at    timestamptz,
    PRIMARY KEY (account_id, idem_key),
    FOREIGN KEY (account_id, kind) REFERENCES balances (account_id, kind),
    CHECK ((state = 'POSTED') = (posted_amount IS NOT NULL))
);
