-- AlterTable
ALTER TABLE "entitlements" ADD COLUMN     "buyer_email" TEXT;

-- "Lost your owner link?" finds the plots bought with an address, compared without case.
CREATE INDEX "plots_notification_email_lower_idx" ON "plots" (lower("notification_email")) WHERE "notification_email" IS NOT NULL;
