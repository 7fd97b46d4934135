-- CreateTable
-- Hand-written: UNLOGGED (no WAL write on every rate-limited request; a crash merely resets the counters)
-- and fillfactor 70 (room on each page for HOT updates of the same key).
CREATE UNLOGGED TABLE "rate_limit_hits" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "window_ends_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "rate_limit_hits_pkey" PRIMARY KEY ("key")
) WITH (fillfactor = 70);
