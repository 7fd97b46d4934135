-- Many claims' writes in one round trip and one transaction (hand-written: the schema differ does not see functions).
-- The claims that reach the database together are written by one call, as PostgreSQL's own group commit would:
--   1. takes every advisory lock the claims need at once (the union of their `footprintLockBlocks`, ascending, as
--      every writer takes them), so two batches, or a batch and a hold, never wait on each other in a cycle;
--   2. writes each claim with `write_claim` (its own locks are then held already) inside its own subtransaction:
--      a claim refused by the exclusion constraint or a unique index is rolled back alone, and its SQLSTATE and
--      constraint are returned for its row (`n`, 1-based); every other claim of the call is kept.
-- Any other error aborts the whole call, and the caller writes those claims one by one.
CREATE FUNCTION "write_claims"(
  p_lock_namespace INTEGER,
  p_lock_blocks INTEGER[],
  p_plot_ids UUID[],
  p_zones TEXT[],
  p_tiers TEXT[],
  p_xs INTEGER[],
  p_ys INTEGER[],
  p_sizes INTEGER[],
  p_display_names TEXT[],
  p_messages TEXT[],
  p_links TEXT[],
  p_visibles BOOLEAN[],
  p_region_names TEXT[],
  p_session_ids TEXT[],
  p_notification_emails TEXT[],
  p_created_ats TIMESTAMPTZ[],
  p_avatars BYTEA[],
  p_manage_token_hashes TEXT[],
  p_event_ids UUID[],
  p_event_subjects TEXT[],
  p_event_payloads JSONB[],
  p_request_ids TEXT[]
) RETURNS TABLE ("n" INTEGER, "sql_state" TEXT, "constraint_name" TEXT)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
  i INTEGER;
  v_state TEXT;
  v_constraint TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_namespace, b) FROM unnest(p_lock_blocks) WITH ORDINALITY AS t(b, o) ORDER BY o;
  FOR i IN 1 .. coalesce(array_length(p_plot_ids, 1), 0) LOOP
    BEGIN
      PERFORM "write_claim"(p_lock_namespace, '{}'::INTEGER[], p_plot_ids[i], p_zones[i], p_tiers[i], p_xs[i], p_ys[i],
        p_sizes[i], p_display_names[i], p_messages[i], p_links[i], p_visibles[i], p_region_names[i], p_session_ids[i],
        p_notification_emails[i], p_created_ats[i], p_avatars[i], p_manage_token_hashes[i], p_event_ids[i],
        p_event_subjects[i], p_event_payloads[i], p_request_ids[i]);
      "n" := i;
      "sql_state" := NULL;
      "constraint_name" := NULL;
    EXCEPTION WHEN unique_violation OR exclusion_violation THEN
      GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_constraint = CONSTRAINT_NAME;
      "n" := i;
      "sql_state" := v_state;
      "constraint_name" := v_constraint;
    END;
    RETURN NEXT;
  END LOOP;
END;
$$;
