-- AlterTable
ALTER TABLE "entitlements" ADD COLUMN     "claim_attempts" INTEGER NOT NULL DEFAULT 0;
