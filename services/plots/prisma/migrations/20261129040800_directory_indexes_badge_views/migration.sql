-- AlterTable: loads of the owner's embeddable badge, counted per day beside views, profile opens and clicks.
ALTER TABLE "plot_daily_stats" ADD COLUMN     "badge_views" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: the directory reads only public plots (visible, not removed). A region's page walks this index in
-- (y, x) order with its offset; the region list counts from it without reading the table's other rows.
CREATE INDEX "plots_public_region_position_idx" ON "plots"("region_name", "y", "x") WHERE "visible" AND "removed_at" IS NULL;

-- Hand-written: a plot's neighbours are the nearest public plots by centre, found by the GiST index's nearest-first
-- scan (ORDER BY ... <-> point) instead of measuring every plot on the map.
CREATE INDEX "plots_public_center_idx" ON "plots" USING gist (point("x" + "size" / 2.0, "y" + "size" / 2.0)) WHERE "visible" AND "removed_at" IS NULL;
