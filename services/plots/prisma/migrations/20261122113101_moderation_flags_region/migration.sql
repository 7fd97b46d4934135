-- AlterTable
ALTER TABLE "plots" ADD COLUMN     "region_name" TEXT,
ADD COLUMN     "removed_at" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "plot_flags" (
    "id" UUID NOT NULL,
    "plot_id" UUID NOT NULL,
    "visitor_key" TEXT NOT NULL,
    "cookie_hash" TEXT,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plot_flags_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "plot_flags_plot_id_cookie_hash_idx" ON "plot_flags"("plot_id", "cookie_hash");

-- CreateIndex
CREATE UNIQUE INDEX "plot_flags_plot_id_visitor_key_key" ON "plot_flags"("plot_id", "visitor_key");

-- AddForeignKey
ALTER TABLE "plot_flags" ADD CONSTRAINT "plot_flags_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
