-- DropIndex
DROP INDEX "payments_client_ip_status_idx";

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "browser_hash" TEXT,
ADD COLUMN     "client_key" TEXT,
ADD COLUMN     "held" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "payments_browser_hash_status_idx" ON "payments"("browser_hash", "status");

-- CreateIndex
CREATE INDEX "payments_client_key_status_idx" ON "payments"("client_key", "status");
