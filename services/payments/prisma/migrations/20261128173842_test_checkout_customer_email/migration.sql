-- AlterTable
ALTER TABLE "test_checkout_sessions" ADD COLUMN     "customer_email" TEXT;
