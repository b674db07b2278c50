-- Each account's cache of the credit reports it fetched (company-data cost rule 2: within 7 days the
-- answer comes from a cache). One row per account and document: the latest fetch, keyed by a SHA-256
-- digest of the document's kind and digits. The report itself names the document and is personal data
-- under LGPD: the server's housekeeping deletes it once it is older than the 7 days the rule serves it.
CREATE TABLE credit_report_cache (
    account_id  bigint      NOT NULL REFERENCES accounts (id),
    doc_digest  bytea       NOT NULL CHECK (length(doc_digest) = 32),
    report      jsonb       NOT NULL,
    fetched_at  timestamptz NOT NULL,
    PRIMARY KEY (account_id, doc_digest)
);
CREATE INDEX credit_report_cache_by_age ON credit_report_cache (fetched_at);
