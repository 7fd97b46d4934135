-- CreateTable
CREATE TABLE "link_checks" (
    "plot_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unchecked',
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "failing_since" TIMESTAMPTZ(6),
    "last_ok_at" TIMESTAMPTZ(6),
    "last_checked_at" TIMESTAMPTZ(6),
    "last_error" TEXT,
    "next_check_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(6),
    "lease_owner" TEXT,

    CONSTRAINT "link_checks_pkey" PRIMARY KEY ("plot_id")
);

-- CreateIndex
CREATE INDEX "link_checks_next_check_at_idx" ON "link_checks"("next_check_at");

-- CreateIndex
CREATE INDEX "link_checks_status_idx" ON "link_checks"("status");

-- AddForeignKey
ALTER TABLE "link_checks" ADD CONSTRAINT "link_checks_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
