-- CreateTable
CREATE TABLE "review_items" (
    "id" UUID NOT NULL,
    "plot_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "source" TEXT NOT NULL,
    "reasons" TEXT[],
    "flag_count" INTEGER NOT NULL DEFAULT 0,
    "display_name" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "message" TEXT NOT NULL,
    "link" TEXT,
    "plot_created_at" TIMESTAMPTZ(6) NOT NULL,
    "queued_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(6),
    "decided_by" TEXT,

    CONSTRAINT "review_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plot_contacts" (
    "plot_id" UUID NOT NULL,
    "notification_email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plot_contacts_pkey" PRIMARY KEY ("plot_id")
);

-- CreateTable
CREATE TABLE "moderation_audit" (
    "id" UUID NOT NULL,
    "plot_id" UUID NOT NULL,
    "review_item_id" UUID NOT NULL,
    "decision" TEXT NOT NULL,
    "admin" TEXT NOT NULL,
    "decided_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "snapshot" JSONB NOT NULL,
    "request_id" TEXT,

    CONSTRAINT "moderation_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "plot_id" UUID NOT NULL,
    "audit_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(6),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "review_items_plot_id_idx" ON "review_items"("plot_id");

-- CreateIndex
CREATE INDEX "review_items_status_queued_at_idx" ON "review_items"("status", "queued_at");

-- CreateIndex
CREATE INDEX "moderation_audit_decided_at_idx" ON "moderation_audit"("decided_at");

-- CreateIndex
CREATE INDEX "moderation_audit_plot_id_idx" ON "moderation_audit"("plot_id");

-- CreateIndex
CREATE INDEX "notifications_plot_id_idx" ON "notifications"("plot_id");

-- Hand-written: the outbox relay scans only unpublished rows.
CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" ("created_at") WHERE "published_at" IS NULL;
-- Hand-written: one pending review per plot (a flag on a queued plot joins that review).
CREATE UNIQUE INDEX "review_items_one_pending_per_plot" ON "review_items" ("plot_id") WHERE "status" = 'pending';
-- Hand-written: the notifier scans only rows still to deliver.
CREATE INDEX "notifications_due_idx" ON "notifications" ("next_attempt_at") WHERE "status" = 'pending';
-- Hand-written: the closed vocabularies.
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected'));
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_source_check" CHECK ("source" IN ('screen', 'visitor', 'both'));
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_decided_check" CHECK (("status" = 'pending') = ("decided_at" IS NULL));
ALTER TABLE "moderation_audit" ADD CONSTRAINT "moderation_audit_decision_check" CHECK ("decision" IN ('approved', 'rejected'));
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("kind" IN ('approved', 'rejected'));
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'logged', 'failed'));
