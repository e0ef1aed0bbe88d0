"""PostgreSQL specifics: a global order that readers never skip, and row-level security.

The global order
----------------
A plain BIGSERIAL position is handed out when a row is inserted, but rows become
visible when their transaction commits. If transaction A takes position 7 and B takes 8,
and B commits first, a catch-up reader can read 8, store 8 as its tracking token and
never see 7. The ``eventsourcing`` library avoids this with ``LOCK TABLE ... EXCLUSIVE``
for the whole write, which serialises every writer, commit included.

Here the writers stay parallel and the readers do the waiting:

1. ``eaf_reserve_positions`` takes a session-level advisory lock for a few microseconds,
   assigns the transaction its id (``pg_current_xact_id()``) and reserves a range of
   positions from a sequence, then releases the lock - before the insert and the commit.
   Inside that critical section transaction ids and positions are handed out in the same
   order, so a transaction with a lower id always holds lower positions.
2. Each event row records its transaction id (``tx_id``, default ``pg_current_xact_id()``).
3. Readers only read rows with ``tx_id < pg_snapshot_xmin(pg_current_snapshot())``: every
   transaction below that horizon has finished, so no row can appear there any more, and
   by (1) every lower position belongs to a finished transaction too. Ordered by position,
   what a reader sees is always a complete prefix of all that will ever be committed
   (positions left unused by rolled-back transactions stay unused, harmlessly).

Cost: a reader can lag behind while an older transaction is still open (any transaction
in the cluster that holds an id holds back the horizon), but it never skips. Writers
serialise only on the reservation, not on inserts, index updates or the commit's WAL
flush, so concurrent commits share flushes.

The append itself runs server-side in one statement, ``eaf_append_many``. It takes
units: a single append, or the appends of a multi-stream append, which are stored whole
or not at all. Per unit the version checks, then its events in one subtransaction (the
events table is the outbox); one round trip and one implicit transaction for the lot.
The Python side (``writers.PostgresWriter``) coalesces units that arrive while earlier
ones are in flight into one call (group commit); a lone unit goes alone. The unique key
on (tenant, stream type, stream id, version) turns any race the version check misses
into a unique violation, reported as a conflict of that unit only. An append without
events asserts its stream's version up to the commit: it inserts (and at once deletes)
a row at the next version, so a concurrent writer of that version either fails it or
waits for it and goes after it; no writer slips in between check and commit. A unit
writes its streams in the order of their keys, so two units never wait for each other
in a cycle; units of two batches still can (each batch is one transaction), and
PostgreSQL then cancels one, which the writer runs again.

Row-level security
------------------
Events, snapshots and sagas carry ``tenant_id``; a policy admits a row when it matches
the transaction-local setting ``eaf.tenant_id`` (``set_config(..., true)``, set at the
start of every transaction), or, for reads only, when ``eaf.platform`` is ``on``. FORCE
ROW LEVEL SECURITY applies it to the table owner as well; only superusers and roles with
BYPASSRLS are exempt, so the application must not connect as one. A session that sets
no tenant sees nothing. The settings are not secrets: this guards against a query that
forgets its tenant filter, not against a client that can run arbitrary SQL.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from eaf.eventsourcing.sql.schema import EVENT_ID_KEY, STREAM_VERSION_KEY

# Advisory lock keys: arbitrary constants, distinct from each other.
POSITION_LOCK = 0x656166706F73
SCHEMA_LOCK = 0x656166646463

_RESERVE_POSITIONS = f"""
CREATE OR REPLACE FUNCTION eaf_reserve_positions(p_count integer) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    v_last bigint;
BEGIN
    IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
        RAISE EXCEPTION 'eaf_reserve_positions must run before its transaction writes';
    END IF;
    PERFORM pg_advisory_lock({POSITION_LOCK});
    BEGIN
        PERFORM pg_current_xact_id();
        v_last := nextval('eaf_events_position_seq') + p_count - 1;
        IF p_count > 1 THEN
            PERFORM setval('eaf_events_position_seq', v_last);
        END IF;
    EXCEPTION WHEN OTHERS THEN
        PERFORM pg_advisory_unlock({POSITION_LOCK});
        RAISE;
    END;
    PERFORM pg_advisory_unlock({POSITION_LOCK});
    RETURN v_last;
END
$fn$
"""

# p_appends: a JSON array of units (each an array of appends, all of one tenant) that
# are stored whole or not at all; one result row per append, in order.
_APPEND_MANY = f"""
CREATE OR REPLACE FUNCTION eaf_append_many(p_appends jsonb, p_recorded_at timestamptz)
RETURNS TABLE (first_position bigint, outcome text, actual_version bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_unit jsonb;
    v_append jsonb;
    v_size integer;
    v_count integer;
    v_total integer;
    v_next bigint;
    v_offset integer;
    v_at integer[];
    v_order integer[];
    v_index integer;
    v_position bigint;
    v_expected bigint;
    v_failed integer;
    v_outcome text;
    v_actual bigint;
    v_constraint text;
BEGIN
    -- A position per event, and one per version assertion (an append without events);
    -- for a lone append without a query, as most calls are one.
    IF jsonb_array_length(p_appends) = 1 AND jsonb_array_length(p_appends->0) = 1 THEN
        v_total := greatest(jsonb_array_length(p_appends->0->0->'events'), 1);
    ELSE
        SELECT coalesce(sum(greatest(jsonb_array_length(a.value->'events'), 1)), 0)
          INTO v_total
          FROM jsonb_array_elements(p_appends) AS u, jsonb_array_elements(u.value) AS a;
    END IF;
    IF v_total > 0 THEN
        v_next := eaf_reserve_positions(v_total) - v_total + 1;
    END IF;
    PERFORM set_config('eaf.platform', 'off', true);
    FOR v_unit IN SELECT value FROM jsonb_array_elements(p_appends) LOOP
        v_size := jsonb_array_length(v_unit);
        v_failed := NULL;
        v_offset := 0;
        v_at := '{{}}';
        PERFORM set_config('eaf.tenant_id', v_unit->0->>'tenant', true);
        -- The versions, in the caller's order: the first append found at another
        -- version is the one reported. And where each append's positions start.
        FOR i IN 0 .. v_size - 1 LOOP
            v_append := v_unit->i;
            v_at := v_at || v_offset;
            v_offset := v_offset + greatest(jsonb_array_length(v_append->'events'), 1);
            CONTINUE WHEN v_failed IS NOT NULL;
            SELECT coalesce(max(stream_version), 0) INTO v_actual FROM eaf_events
             WHERE tenant_id = v_append->>'tenant'
               AND stream_type = v_append->>'stream_type'
               AND stream_id = v_append->>'stream_id';
            IF v_actual <> (v_append->>'expected')::bigint THEN
                v_failed := i;
                v_outcome := 'conflict';
            END IF;
        END LOOP;
        IF v_failed IS NULL THEN
            -- Writes in the order of the streams' keys: units that wait for each other's
            -- rows (a race on a stream) then always wait in that order, never in a cycle.
            IF v_size = 1 THEN
                v_order := '{{0}}';
            ELSE
                SELECT array_agg(a.ord - 1 ORDER BY a.value->>'stream_type',
                                 a.value->>'stream_id')
                  INTO v_order
                  FROM jsonb_array_elements(v_unit) WITH ORDINALITY AS a(value, ord);
            END IF;
            BEGIN  -- a subtransaction: a failing unit takes only its own rows with it
                FOREACH v_index IN ARRAY v_order LOOP
                    v_failed := v_index;  -- the append under way, should it fail
                    v_append := v_unit->v_index;
                    v_count := jsonb_array_length(v_append->'events');
                    v_expected := (v_append->>'expected')::bigint;
                    v_position := v_next + v_at[v_index + 1];
                    IF v_count = 0 THEN
                        -- A version assertion holds until commit: a row at the next
                        -- version, deleted at once, makes a writer of that version wait
                        -- for this transaction and go after it, or (one already under
                        -- way) makes this wait for it and fail.
                        INSERT INTO eaf_events (position, event_id, tenant_id, stream_type,
                                                stream_id, stream_version, event_type,
                                                schema_version, payload)
                        VALUES (v_position, gen_random_uuid(), v_append->>'tenant',
                                v_append->>'stream_type', v_append->>'stream_id',
                                v_expected + 1, '', 0, '{{}}')
                        ON CONFLICT ON CONSTRAINT {STREAM_VERSION_KEY} DO NOTHING;
                        IF NOT FOUND THEN
                            RAISE SQLSTATE 'EAFVC';
                        END IF;
                        DELETE FROM eaf_events WHERE position = v_position;
                    ELSE
                        INSERT INTO eaf_events (position, event_id, tenant_id, stream_type,
                                                stream_id, stream_version, event_type,
                                                schema_version, payload, metadata,
                                                recorded_at, commit_position)
                        SELECT v_position + e.ord - 1, (e.value->>0)::uuid,
                               v_append->>'tenant', v_append->>'stream_type',
                               v_append->>'stream_id', v_expected + e.ord, e.value->>1,
                               (e.value->>2)::integer, e.value->3,
                               -- once per append, on its first event (see schema.py)
                               CASE WHEN e.ord = 1 THEN v_append->'metadata' END,
                               CASE WHEN e.ord = 1 THEN p_recorded_at END,
                               CASE WHEN e.ord > 1 THEN v_position END
                          FROM jsonb_array_elements(v_append->'events')
                               WITH ORDINALITY AS e(value, ord);
                    END IF;
                END LOOP;
                v_failed := NULL;
            EXCEPTION
                WHEN SQLSTATE 'EAFVC' THEN  -- an assertion lost a race
                    v_outcome := 'conflict';
                    v_actual := NULL;
                WHEN unique_violation THEN  -- a race the version check missed
                    GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
                    v_outcome := CASE WHEN v_constraint = '{EVENT_ID_KEY}' THEN 'duplicate'
                                      ELSE 'conflict' END;
                    v_actual := NULL;
            END;
        END IF;
        -- A row per append: its first position, or why the unit failed ('aborted': the
        -- unit's other appends, which took no part in the failure).
        FOR i IN 0 .. v_size - 1 LOOP
            first_position := v_next + v_at[i + 1];
            IF v_failed IS NULL THEN
                outcome := 'ok';
                actual_version := (v_unit->i->>'expected')::bigint;
            ELSIF i = v_failed THEN
                outcome := v_outcome;
                actual_version := v_actual;
            ELSE
                outcome := 'aborted';
                actual_version := NULL;
            END IF;
            RETURN NEXT;
        END LOOP;
        v_next := v_next + v_offset;
    END LOOP;
END
$fn$
"""

_POLICIES = """
DO $do$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['eaf_events', 'eaf_snapshots', 'eaf_sagas'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_class WHERE oid = t::regclass
                       AND relrowsecurity AND relforcerowsecurity) THEN
            EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
            EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = t::regclass
                       AND polname = 'eaf_tenant_isolation') THEN
            EXECUTE format($p$
                CREATE POLICY eaf_tenant_isolation ON %I
                USING (tenant_id = current_setting('eaf.tenant_id', true)
                       OR current_setting('eaf.platform', true) = 'on')
                WITH CHECK (tenant_id = current_setting('eaf.tenant_id', true))
            $p$, t);
        END IF;
    END LOOP;
END
$do$
"""

_STATEMENTS = (
    # CACHE 1 (the default) matters: ranges are only consecutive without per-session caches.
    "CREATE SEQUENCE IF NOT EXISTS eaf_events_position_seq CACHE 1",
    _RESERVE_POSITIONS,
    _APPEND_MANY,
    _POLICIES,
)

APPEND_MANY_CALL = "SELECT * FROM eaf_append_many($1::jsonb, $2)"
# Rows below this horizon belong to finished transactions: see the module docstring.
VISIBLE_HORIZON = "eaf_events.tx_id < pg_snapshot_xmin(pg_current_snapshot())"


async def install(connection: AsyncConnection) -> None:
    """Create the sequence, functions and policies (idempotent; tables exist already)."""
    for statement in _STATEMENTS:
        await connection.exec_driver_sql(statement)
