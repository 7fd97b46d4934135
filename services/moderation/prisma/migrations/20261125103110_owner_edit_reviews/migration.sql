-- AlterTable
ALTER TABLE "review_items" ADD COLUMN     "current_link" TEXT,
ADD COLUMN     "current_message" TEXT,
ADD COLUMN     "edit_id" UUID,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'plot';

-- Hand-written: one pending review per plot AND kind (an owner's held edit is judged apart from the plot itself).
DROP INDEX "review_items_one_pending_per_plot";
CREATE UNIQUE INDEX "review_items_one_pending_per_plot_kind" ON "review_items" ("plot_id", "kind") WHERE "status" = 'pending';
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_kind_check" CHECK ("kind" IN ('plot', 'edit') AND (("kind" = 'edit') = ("edit_id" IS NOT NULL)));
