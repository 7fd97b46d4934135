-- AlterTable
ALTER TABLE "plots" ADD COLUMN     "avatar_version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "content_updated_at" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "plot_manage_tokens" (
    "plot_id" UUID NOT NULL,
    "token_hash" TEXT,
    "issued_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(6),
    "revoked_by" TEXT,

    CONSTRAINT "plot_manage_tokens_pkey" PRIMARY KEY ("plot_id")
);

-- CreateTable
CREATE TABLE "plot_edits" (
    "id" UUID NOT NULL,
    "plot_id" UUID NOT NULL,
    "message" TEXT NOT NULL,
    "link" TEXT,
    "screened_words" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(6),

    CONSTRAINT "plot_edits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plot_daily_stats" (
    "plot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,
    "profile_opens" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "plot_daily_stats_pkey" PRIMARY KEY ("plot_id","day")
);

-- CreateIndex
CREATE UNIQUE INDEX "plot_manage_tokens_token_hash_key" ON "plot_manage_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "plot_edits_plot_id_status_idx" ON "plot_edits"("plot_id", "status");

-- CreateIndex
CREATE INDEX "plot_daily_stats_day_idx" ON "plot_daily_stats"("day");

-- AddForeignKey
ALTER TABLE "plot_manage_tokens" ADD CONSTRAINT "plot_manage_tokens_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plot_edits" ADD CONSTRAINT "plot_edits_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plot_daily_stats" ADD CONSTRAINT "plot_daily_stats_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: at most one edit per plot waits for review (a newer one supersedes it in the same transaction).
CREATE UNIQUE INDEX "plot_edits_one_pending_per_plot" ON "plot_edits"("plot_id") WHERE "status" = 'pending';
