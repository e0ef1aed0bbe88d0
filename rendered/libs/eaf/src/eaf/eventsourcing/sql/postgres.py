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

The append itself runs server-side in one statement, ``eaf_append_many``: per append a
version check, then its events in a subtransaction (the events table is the outbox);
one round trip and one implicit transaction for the lot. The Python side (``writers.PostgresWriter``)
coalesces appends that arrive while earlier ones are in flight into one call (group
commit); a lone append goes alone. The unique key on (tenant, stream type, stream id,
version) turns any race the version check misses into a unique violation, reported as a
conflict of that append only.

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

from eaf.eventsourcing.sql.schema import EVENT_ID_KEY

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

_APPEND_MANY = f"""
CREATE OR REPLACE FUNCTION eaf_append_many(p_appends jsonb, p_recorded_at timestamptz)
RETURNS TABLE (first_position bigint, outcome text, actual_version bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_append jsonb;
    v_total integer;
    v_count integer;
    v_next bigint;
    v_constraint text;
BEGIN
    SELECT coalesce(sum(jsonb_array_length(a.value->'events')), 0)::integer INTO v_total
      FROM jsonb_array_elements(p_appends) AS a;
    IF v_total > 0 THEN
        v_next := eaf_reserve_positions(v_total) - v_total + 1;
    END IF;
    PERFORM set_config('eaf.platform', 'off', true);
    FOR v_append IN SELECT value FROM jsonb_array_elements(p_appends) LOOP
        v_count := jsonb_array_length(v_append->'events');
        PERFORM set_config('eaf.tenant_id', v_append->>'tenant', true);
        first_position := v_next;
        SELECT coalesce(max(stream_version), 0) INTO actual_version FROM eaf_events
         WHERE tenant_id = v_append->>'tenant'
           AND stream_type = v_append->>'stream_type'
           AND stream_id = v_append->>'stream_id';
        IF actual_version <> (v_append->>'expected')::bigint THEN
            outcome := 'conflict';
        ELSIF v_count = 0 THEN
            outcome := 'ok';
        ELSE
            BEGIN  -- a subtransaction: a failing append takes only its own rows with it
                INSERT INTO eaf_events (position, event_id, tenant_id, stream_type, stream_id,
                                        stream_version, event_type, schema_version, payload,
                                        metadata, recorded_at, commit_position)
                SELECT v_next + e.ord - 1, (e.value->>0)::uuid, v_append->>'tenant',
                       v_append->>'stream_type', v_append->>'stream_id',
                       actual_version + e.ord, e.value->>1, (e.value->>2)::integer,
                       e.value->3,
                       -- once per append, on its first event (see schema.py)
                       CASE WHEN e.ord = 1 THEN v_append->'metadata' END,
                       CASE WHEN e.ord = 1 THEN p_recorded_at END,
                       CASE WHEN e.ord > 1 THEN v_next END
                  FROM jsonb_array_elements(v_append->'events') WITH ORDINALITY AS e(value, ord);
                outcome := 'ok';
            EXCEPTION WHEN unique_violation THEN
                GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
                outcome := CASE WHEN v_constraint = '{EVENT_ID_KEY}' THEN 'duplicate'
                                ELSE 'conflict' END;
                actual_version := NULL;
            END;
        END IF;
        v_next := v_next + v_count;
        RETURN NEXT;
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
