-- AlterTable
ALTER TABLE "notifications" ALTER COLUMN "audit_id" DROP NOT NULL;

-- Hand-written: a notice that follows no decision (the link checker gave up on a plot's link); decision e-mails
-- still always name their audit row.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("kind" IN ('approved', 'rejected', 'link-unreachable'));
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_decision_audit_check" CHECK ("kind" = 'link-unreachable' OR "audit_id" IS NOT NULL);
