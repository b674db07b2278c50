-- The acceptance and the check of a dispatch become heap-only (HOT) updates: no index of sms_dispatches
-- names a column they set, so PostgreSQL writes each new row version beside the old one on the same
-- page when it has room, adds no index entry, and prunes the old version from the page when a later
-- statement finds the page short of free space, without a vacuum. Before, two
-- partial indexes had predicates on delivery, so each acceptance wrote a new entry in each of the
-- table's four other indexes, and a vacuum of the table then had to read every index to remove the
-- dead entries; at 1,000 send-and-check pairs per second on two cores, that vacuum is what started the
-- slow seconds of the SMS benchmark (benchmarks/RESULTS.md, "sms: the tail at 1,000 pairs/s and
-- autovacuum").
--
-- * The dispatches still sending move to their own small table, one row each from the send's commit to
--   the settlement's (acceptance, provider unavailable, or housekeeping's release of a stuck send), in
--   the same statements; housekeeping reads it instead of the partial index sms_dispatches_sending. It
--   holds only the sends in flight, so its vacuum is cheap. No foreign key: it would run a check per
--   send, and dispatches are never deleted; PgOtpStore writes both tables in one statement.
-- * The throttle index loses its predicate (delivery <> 'indisponivel'): the throttle reads the phone's
--   sends of the last hour and skips the ones the provider refused when it reads their rows. Those are
--   few unless a client keeps sending while the provider is down, which the rate limits bound.
-- * The table leaves 10% of each new page free, so the two updates of a dispatch, which come within
--   milliseconds of its insert, find room on its page (at 1,000 pairs/s: 99.4% heap-only with 10%
--   free, 92.8% with none, 99.0-99.9% with 30%, which made the table a third larger). Existing pages
--   keep their layout.
--
-- Servers of an older version must be stopped before the first server of this version starts: their
-- sends would not write the new table (housekeeping would then never release such a send if its server
-- stopped before the provider answered), and their settlements would not delete from it (housekeeping
-- skips those rows, whose dispatch is settled; nothing else reads them). On an existing database the
-- script locks sms_dispatches against writes first, so the copy misses no send, then rebuilds the
-- throttle index over the whole table in its transaction: sends, checks and receipts wait for it,
-- longer the more dispatches the table holds.
LOCK TABLE sms_dispatches IN SHARE MODE;

CREATE TABLE sms_sending (
    dispatch_id bigint      PRIMARY KEY,
    since       timestamptz NOT NULL
);

INSERT INTO sms_sending (dispatch_id, since)
SELECT id, created_at FROM sms_dispatches WHERE delivery = 'enviando';

DROP INDEX sms_dispatches_sending;

DROP INDEX sms_dispatches_throttle;
CREATE INDEX sms_dispatches_throttle ON sms_dispatches (phone_key, created_at DESC);

ALTER TABLE sms_dispatches SET (fillfactor = 90);
