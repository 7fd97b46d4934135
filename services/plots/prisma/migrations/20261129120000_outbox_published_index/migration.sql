-- The published rows are kept for OUTBOX_RETENTION_DAYS: the reconciler pages through them by (published_at, id) and
-- the retention sweep deletes the oldest, both without scanning the whole table.
CREATE INDEX "outbox_events_published_idx" ON "outbox_events" ("published_at", "id") WHERE "published_at" IS NOT NULL;
