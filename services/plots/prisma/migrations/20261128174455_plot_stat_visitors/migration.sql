-- CreateTable
CREATE TABLE "plot_stat_visitors" (
    "plot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "kind" TEXT NOT NULL,
    "visitor" BYTEA NOT NULL,

    CONSTRAINT "plot_stat_visitors_pkey" PRIMARY KEY ("plot_id","day","kind","visitor")
);

-- CreateIndex
CREATE INDEX "plot_stat_visitors_day_idx" ON "plot_stat_visitors"("day");

-- AddForeignKey
ALTER TABLE "plot_stat_visitors" ADD CONSTRAINT "plot_stat_visitors_plot_id_fkey" FOREIGN KEY ("plot_id") REFERENCES "plots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
