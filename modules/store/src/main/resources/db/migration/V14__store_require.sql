-- A statement that must fail as a whole when one of its parts wrote nothing says so with this
-- function: store_require(condition, message) returns true when the condition holds and otherwise
-- raises an error with SQLSTATE ST001 (class ST: the store's own, in the range SQL leaves to
-- implementations, unused by PostgreSQL) and the message, so the statement and its transaction roll
-- back. PgOtpStore's acceptance uses it: a dispatch settled with no ledger entry written (its hold was
-- not held) must not be committed. It replaces a division by the count of entries (SQLSTATE 22012,
-- indistinguishable from a real division by zero).
CREATE FUNCTION store_require(condition boolean, message text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF condition IS NOT TRUE THEN
        RAISE EXCEPTION USING ERRCODE = 'ST001', MESSAGE = message;
    END IF;
    RETURN true;
END
$$;
