-- The reference month (and publication time) of the register generation a mailing export read, recorded
-- when the job completes: its status and its file name that month even after another generation is
-- published. NULL for jobs completed before this column, or read from a generation without a month.
ALTER TABLE mailing_jobs
    ADD COLUMN reference_month text,
    ADD COLUMN reference_published_at timestamptz,
    ADD CHECK ((reference_month IS NULL) = (reference_published_at IS NULL));
