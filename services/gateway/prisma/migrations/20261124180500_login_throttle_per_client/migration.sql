-- AlterTable
ALTER TABLE "login_throttle" ADD COLUMN     "last_attempt_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Hand-written: the keys change meaning (per username and client, and a per-username hourly ceiling),
-- so the old per-username locks go; throttle state is disposable.
DELETE FROM "login_throttle";
