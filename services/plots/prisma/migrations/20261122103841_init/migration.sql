-- CreateTable
CREATE TABLE "plots" (
    "id" UUID NOT NULL,
    "zone" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "display_name" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "link" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "reviewed" BOOLEAN NOT NULL DEFAULT false,
    "visible" BOOLEAN NOT NULL DEFAULT true,
    "stripe_session_id" TEXT NOT NULL,
    "notification_email" TEXT,

    CONSTRAINT "plots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plot_avatars" (
    "plot_id" UUID NOT NULL,
    "png" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plot_avatars_pkey" PRIMARY KEY ("plot_id")
);

-- CreateTable
CREATE TABLE "footprints" (
    "id" UUID NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "plot_id" UUID,
    "hold_id" TEXT,
    "session_id" TEXT,
    "tier" TEXT,
    "expires_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "footprints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entitlements" (
    "session_id" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "amount_cents" INTEGER,
    "currency" TEXT,
    "footprint_x" INTEGER,
    "footprint_y" INTEGER,
    "footprint_size" INTEGER,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "entitlements_pkey" PRIMARY KEY ("session_id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "plots_stripe_session_id_key" ON "plots"("stripe_session_id");

-- CreateIndex
CREATE INDEX "plots_visible_created_at_idx" ON "plots"("visible", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "footprints_plot_id_key" ON "footprints"("plot_id");

-- CreateIndex
CREATE UNIQUE INDEX "footprints_hold_id_key" ON "footprints"("hold_id");

-- CreateIndex
CREATE UNIQUE INDEX "footprints_session_id_key" ON "footprints"("session_id");

-- CreateIndex
CREATE INDEX "footprints_kind_expires_at_idx" ON "footprints"("kind", "expires_at");

-- AddForeignKey
ALTER TABLE "plot_avatars" ADD CONSTRAINT "plot_avatars_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the outbox relay scans only unpublished rows.
CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" ("created_at") WHERE "published_at" IS NULL;

-- Hand-written: no two footprints (plots or live holds) ever share a tile, whatever the concurrency.
-- Half-open ranges: plots that only touch do not overlap. Expired holds are deleted in the same transaction
-- before a footprint is inserted over them. (int4range needs no extension for a gist exclusion.)
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_no_overlap"
  EXCLUDE USING gist (int4range("x", "x" + "size") WITH &&, int4range("y", "y" + "size") WITH &&);
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_kind_check" CHECK (
  ("kind" = 'plot' AND "plot_id" IS NOT NULL AND "hold_id" IS NULL) OR
  ("kind" = 'hold' AND "plot_id" IS NULL AND "hold_id" IS NOT NULL AND "expires_at" IS NOT NULL));
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_size_check" CHECK ("size" BETWEEN 1 AND 4 AND "x" >= 0 AND "y" >= 0);
ALTER TABLE "plots" ADD CONSTRAINT "plots_size_check" CHECK ("size" BETWEEN 1 AND 4);

-- Hand-written: user pages match display names case-insensitively.
CREATE INDEX "plots_display_name_lower_idx" ON "plots" (lower("display_name")) WHERE "visible";
