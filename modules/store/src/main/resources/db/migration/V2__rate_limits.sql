-- Request counters shared by every server instance: one row per key and epoch minute, one row per
-- account and calendar day (America/Sao_Paulo). Each request is one atomic UPSERT (see ADR 0012).
CREATE TABLE rate_minute (
    key_prefix   text    NOT NULL,
    epoch_minute bigint  NOT NULL,
    requests     integer NOT NULL CHECK (requests >= 1),
    PRIMARY KEY (key_prefix, epoch_minute)
);

CREATE TABLE rate_day (
    account_id bigint NOT NULL,
    day        date   NOT NULL,
    requests   bigint NOT NULL CHECK (requests >= 1),
    PRIMARY KEY (account_id, day)
);
