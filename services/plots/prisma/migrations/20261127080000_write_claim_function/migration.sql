-- A claim's whole write in one round trip (hand-written: the schema differ does not see functions).
-- What it does, in order, in the caller's single statement (so one implicit transaction):
--   1. waits behind any transaction placing an overlapping footprint: the advisory locks of footprints.ts
--      (`footprintLockBlocks`: one per 4x4 block touched, ascending), the same ones holds take;
--   2. deletes this session's own hold wherever it is, and expired holds under the new footprint;
--   3. inserts the plot, its avatar, its footprint, its owner-link token hash and the outbox event.
-- The exclusion constraint `footprints_no_overlap` and the unique `stripe_session_id` stay the arbiters: a violation
-- aborts the whole statement and nothing of it is kept.
-- SET search_path FROM CURRENT: the tables are this service's schema, whatever the caller's search_path.
CREATE FUNCTION "write_claim"(
  p_lock_namespace INTEGER,
  p_lock_blocks INTEGER[],
  p_plot_id UUID,
  p_zone TEXT,
  p_tier TEXT,
  p_x INTEGER,
  p_y INTEGER,
  p_size INTEGER,
  p_display_name TEXT,
  p_message TEXT,
  p_link TEXT,
  p_visible BOOLEAN,
  p_region_name TEXT,
  p_session_id TEXT,
  p_notification_email TEXT,
  p_created_at TIMESTAMPTZ,
  p_avatar BYTEA,
  p_manage_token_hash TEXT,
  p_event_id UUID,
  p_event_subject TEXT,
  p_event_payload JSONB,
  p_request_id TEXT
) RETURNS VOID
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_namespace, b) FROM unnest(p_lock_blocks) WITH ORDINALITY AS t(b, n) ORDER BY n;
  DELETE FROM "footprints"
   WHERE "kind" = 'hold'
     AND ("session_id" = p_session_id
          OR ("expires_at" <= now()
              AND int4range("x", "x" + "size") && int4range(p_x, p_x + p_size)
              AND int4range("y", "y" + "size") && int4range(p_y, p_y + p_size)));
  INSERT INTO "plots" ("id", "zone", "tier", "x", "y", "size", "display_name", "message", "link", "created_at",
                       "flagged", "visible", "region_name", "stripe_session_id", "notification_email")
  VALUES (p_plot_id, p_zone, p_tier, p_x, p_y, p_size, p_display_name, p_message, p_link, p_created_at,
          NOT p_visible, p_visible, p_region_name, p_session_id, p_notification_email);
  INSERT INTO "plot_avatars" ("plot_id", "png") VALUES (p_plot_id, p_avatar);
  INSERT INTO "footprints" ("id", "x", "y", "size", "kind", "plot_id") VALUES (gen_random_uuid(), p_x, p_y, p_size, 'plot', p_plot_id);
  INSERT INTO "plot_manage_tokens" ("plot_id", "token_hash") VALUES (p_plot_id, p_manage_token_hash);
  INSERT INTO "outbox_events" ("id", "subject", "payload", "request_id") VALUES (p_event_id, p_event_subject, p_event_payload, p_request_id);
END;
$$;
