-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "cancelled_at" TIMESTAMPTZ(6),
ADD COLUMN     "client_ip" TEXT;

-- CreateIndex
CREATE INDEX "payments_client_ip_status_idx" ON "payments"("client_ip", "status");

-- Hand-written: a buyer's cancel (or a newer checkout from the same client) ends a pending payment as cancelled.
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("status" IN ('pending', 'paid', 'expired', 'cancelled'));
