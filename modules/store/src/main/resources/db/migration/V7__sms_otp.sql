-- SMS one-time codes: one row per dispatch, moved together with its SMS credit hold in one transaction.
-- The code is never stored: only its HMAC-SHA256 (code_mac) under the server key named by key_id.
-- The phone is kept as a digest (the throttle's unit with the account) and masked (for operators).
-- 'bloqueado' and 'expirado' are not stored: they are read from attempts = 5 and expires_at, so a check
-- counts its attempt and checks the state and the expiry in one UPDATE, and nothing else has to write.
CREATE TABLE sms_dispatches (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    public_id           text        NOT NULL UNIQUE CHECK (length(public_id) BETWEEN 1 AND 64),
    account_id          bigint      NOT NULL REFERENCES accounts (id),
    phone_key           text        NOT NULL,
    phone_masked        text        NOT NULL,
    digits              integer     NOT NULL CHECK (digits BETWEEN 4 AND 8),
    key_id              text        NOT NULL,
    code_mac            bytea       NOT NULL CHECK (length(code_mac) = 32),
    hold_key            text        NOT NULL,
    -- The reference of the request that made it (the Idempotency-Key's row, or the request id): a retry
    -- of the same request finds its dispatch instead of sending a second SMS.
    client_ref          text        NOT NULL CHECK (length(client_ref) BETWEEN 1 AND 100),
    created_at          timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL CHECK (expires_at > created_at),
    attempts            integer     NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
    state               text        NOT NULL DEFAULT 'pendente' CHECK (state IN ('pendente', 'verificado')),
    verified_at         timestamptz,
    delivery            text        NOT NULL DEFAULT 'enviando'
                                    CHECK (delivery IN ('enviando', 'aceito', 'indisponivel', 'falhou', 'incerto')),
    failure_reported_at timestamptz,
    provider_message_id text,
    settled_at          timestamptz,
    CHECK ((state = 'verificado') = (verified_at IS NOT NULL)),
    CHECK ((delivery = 'enviando') = (settled_at IS NULL))
);

-- The throttle reads the counted dispatches of one account and phone in the last hour, newest first.
CREATE INDEX sms_dispatches_throttle ON sms_dispatches (account_id, phone_key, created_at DESC)
    WHERE delivery <> 'indisponivel';
-- Housekeeping finds dispatches stuck in sending.
CREATE INDEX sms_dispatches_sending ON sms_dispatches (created_at) WHERE delivery = 'enviando';
-- A retried send finds the dispatch its reference already made.
CREATE INDEX sms_dispatches_client_ref ON sms_dispatches (account_id, client_ref);
