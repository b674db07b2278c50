-- The seven one-column rules of sms_dispatches become domains; the same rules, checked more cheaply.
-- PostgreSQL prepares every CHECK constraint of a table again for each statement that writes a row of
-- it (it parses each one's stored expression), whichever columns the statement sets; a domain's rule
-- is prepared from a cache kept per connection, and checked only for the columns a statement assigns.
-- A send inserts a dispatch, its acceptance and its check each update it: a single-row UPDATE by
-- public_id took 28 us with the ten CHECKs and 14 us with these seven as domains (benchmarks/RESULTS.md,
-- "sms: where a pair's CPU goes, and a check with one write"). The three rules that relate two columns
-- stay CHECKs of the table.
--
-- Each column first takes a domain without its rule: the same storage as before, so the table is not
-- rewritten. PostgreSQL still rebuilds the two partial indexes (their predicates name delivery) and
-- validates again the CHECKs that name the altered columns, one read of the table; the public_id and
-- client_ref indexes are kept. Then each domain takes its rule, which PostgreSQL validates by reading
-- the table once more; the table's own CHECK goes last. The type change drops the columns' statistics;
-- autovacuum gathers them again. (Not an ANALYZE here: on a new database it would record the table as
-- empty, and connections would cache plans that scan it, benchmarks/RESULTS.md, "sms: plans on a new
-- database"; SmsPlanTest fails then.) On an existing database sends, checks and receipts wait for all
-- of it (a few reads of sms_dispatches and two index builds).
--
-- Servers of an older version still running when this script is applied fail each statement they
-- had prepared on these columns once per connection ("cached plan must not change result type",
-- SQLSTATE 0A000), inside a transaction with no retry: stop them before the first server of this
-- version starts.
CREATE DOMAIN sms_public_id AS text;
CREATE DOMAIN sms_digits AS integer;
CREATE DOMAIN sms_code_mac AS bytea;
CREATE DOMAIN sms_client_ref AS text;
CREATE DOMAIN sms_attempts AS integer;
CREATE DOMAIN sms_state AS text;
CREATE DOMAIN sms_delivery AS text;

ALTER TABLE sms_dispatches
    ALTER COLUMN public_id TYPE sms_public_id,
    ALTER COLUMN digits TYPE sms_digits,
    ALTER COLUMN code_mac TYPE sms_code_mac,
    ALTER COLUMN client_ref TYPE sms_client_ref,
    ALTER COLUMN attempts TYPE sms_attempts,
    ALTER COLUMN state TYPE sms_state,
    ALTER COLUMN delivery TYPE sms_delivery;

ALTER DOMAIN sms_public_id ADD CONSTRAINT sms_public_id_length CHECK (length(VALUE) BETWEEN 1 AND 64);
ALTER DOMAIN sms_digits ADD CONSTRAINT sms_digits_range CHECK (VALUE BETWEEN 4 AND 8);
ALTER DOMAIN sms_code_mac ADD CONSTRAINT sms_code_mac_length CHECK (length(VALUE) = 32);
ALTER DOMAIN sms_client_ref ADD CONSTRAINT sms_client_ref_length CHECK (length(VALUE) BETWEEN 1 AND 100);
ALTER DOMAIN sms_attempts ADD CONSTRAINT sms_attempts_range CHECK (VALUE BETWEEN 0 AND 5);
ALTER DOMAIN sms_state ADD CONSTRAINT sms_state_known CHECK (VALUE IN ('pendente', 'verificado'));
ALTER DOMAIN sms_delivery ADD CONSTRAINT sms_delivery_known
    CHECK (VALUE IN ('enviando', 'aceito', 'indisponivel', 'falhou', 'incerto'));

ALTER TABLE sms_dispatches
    DROP CONSTRAINT sms_dispatches_public_id_check,
    DROP CONSTRAINT sms_dispatches_digits_check,
    DROP CONSTRAINT sms_dispatches_code_mac_check,
    DROP CONSTRAINT sms_dispatches_client_ref_check,
    DROP CONSTRAINT sms_dispatches_attempts_check,
    DROP CONSTRAINT sms_dispatches_state_check,
    DROP CONSTRAINT sms_dispatches_delivery_check;
