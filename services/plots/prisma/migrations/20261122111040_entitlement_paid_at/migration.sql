-- AlterTable
ALTER TABLE "entitlements" ADD COLUMN     "paid_at" TIMESTAMPTZ(6);
