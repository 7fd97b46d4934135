-- Hand-written: the buyer's receipt (it carries the owner link) and the "Lost your owner link?" e-mail are notices of
-- their own kinds; like the owner link they follow no decision, and their bodies keep a placeholder instead of links.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("kind" IN ('approved', 'rejected', 'link-unreachable', 'owner-link', 'receipt', 'owner-link-recovery'));
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_decision_audit_check";
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_decision_audit_check" CHECK ("kind" IN ('link-unreachable', 'owner-link', 'receipt', 'owner-link-recovery') OR "audit_id" IS NOT NULL);
