-- The call feed (GET /v1/ligacoes?ordem=disponibilidade, ADR 0048): each ready call's place in the order
-- in which calls became listable or were reclassified. available_at is set in the ingest transaction
-- that makes the call ready or reclassifies it, while that transaction holds its integration's ingest
-- lock (taken first, held to the commit, released only after the commit is visible), to one second more
-- than the integration's latest position, or the ingest's own second if that is later. So within one
-- integration every transaction's position is later than every position already committed, and the
-- rows a reader sees are always the whole feed up to some position: a reader never passes a position
-- that a transaction still running could take. Whole seconds, one per transaction, so a client can
-- resume from the time it was shown with the id as tie-break.
ALTER TABLE calls ADD COLUMN available_at timestamptz;

-- Calls that were ready before the feed existed take their archive time, cut to the second.
UPDATE calls SET available_at = date_trunc('second', archived_at) WHERE archived_at IS NOT NULL;

ALTER TABLE calls ADD CONSTRAINT calls_available_when_ready
    CHECK ((archived_at IS NULL) = (available_at IS NULL));

-- The feed's order within an integration; also gives the integration's latest position with one probe.
CREATE INDEX calls_feed ON calls (integration_id, available_at, id) WHERE archived_at IS NOT NULL;
