-- The pairing throttle (hub/throttle.py): failed pairing-code guesses per address and in all,
-- kept in the database so that a restarted hub gives no allowance back and every hub process
-- on the database spends the same one.
--
-- A bucket is one time, `full_at`: when it is whole again (the "theoretical arrival time" of a
-- GCRA). A bucket of `capacity` tokens refilling one every `step` seconds holds
-- capacity - (full_at - now) / step of them; a token may be taken while full_at - now is at most
-- (capacity - 1) * step (the `burst`), and taking one moves full_at a step on from
-- max(full_at, now). A row whose full_at has passed is a full bucket, the same as no row: the
-- hub's sweep deletes those (bounded growth), and so does giving a token back.

CREATE TABLE throttles (
    kind text NOT NULL,               -- 'pair_address' (key: the address), 'pair_all' (key: '*')
    key text NOT NULL,
    full_at timestamptz NOT NULL,     -- when the bucket is full again
    PRIMARY KEY (kind, key)
);
-- No index on full_at: every guess moves the hub-wide row's full_at, and an index on it would
-- make each of those updates a new index entry (no HOT update). The sweep reads the whole table,
-- which holds only buckets not yet full again: at most the addresses whose guesses the hub-wide
-- bucket let through in the last ~2 minutes (200 + 2 a second), and the hub-wide row.

-- Give back one token to each bucket named (a guess that was no guess: a code that paired).
CREATE FUNCTION throttle_give(kinds text[], keys text[], steps float8[]) RETURNS void
LANGUAGE plpgsql SET lock_timeout = '2s' AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);  -- as throttle_take's
    FOR i IN 1 .. coalesce(array_length(kinds, 1), 0) LOOP
        DELETE FROM throttles
            WHERE kind = kinds[i] AND key = keys[i] AND full_at - make_interval(secs => steps[i]) <= now();
        IF NOT FOUND THEN
            UPDATE throttles SET full_at = full_at - make_interval(secs => steps[i])
                WHERE kind = kinds[i] AND key = keys[i];
        END IF;
    END LOOP;
END $$;

-- Take one token from each bucket named, in order, all or none, in one statement: 0 when all
-- were taken, else the number (from 1) of the first bucket that had none left (the tokens
-- taken before it are given back). Each take is one INSERT ... ON CONFLICT DO UPDATE ... WHERE,
-- atomic under the row's lock: two hub processes cannot both spend a bucket's last token. A
-- row lock held elsewhere for longer than lock_timeout (a session left in a transaction on
-- it) ends the take with an error, a 503 for the guess, instead of a guess that hangs holding
-- one of the pool's connections.
CREATE FUNCTION throttle_take(kinds text[], keys text[], steps float8[], bursts float8[])
RETURNS integer LANGUAGE plpgsql SET lock_timeout = '2s' AS $$
BEGIN
    -- The statement's commit does not wait for the disk (the hub calls it with autocommit, so
    -- this holds for the take alone): a crash of PostgreSQL itself may forget the last fraction
    -- of a second of takes (at most 3 x wal_writer_delay), a restart of the hub forgets none.
    PERFORM set_config('synchronous_commit', 'off', true);
    FOR i IN 1 .. coalesce(array_length(kinds, 1), 0) LOOP
        INSERT INTO throttles AS t (kind, key, full_at)
            VALUES (kinds[i], keys[i], now() + make_interval(secs => steps[i]))
            ON CONFLICT (kind, key) DO UPDATE
                SET full_at = greatest(t.full_at, now()) + make_interval(secs => steps[i])
                WHERE t.full_at <= now() + make_interval(secs => bursts[i]);
        IF NOT FOUND THEN
            IF i > 1 THEN
                PERFORM throttle_give(kinds[1:i - 1], keys[1:i - 1], steps[1:i - 1]);
            END IF;
            RETURN i;
        END IF;
    END LOOP;
    RETURN 0;
END $$;
