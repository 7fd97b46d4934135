-- Hand-written: the e-mail with a new plot's owner link is a notice of its own kind; it follows no decision, and its
-- body keeps a placeholder instead of the link (the token is stored nowhere).
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("kind" IN ('approved', 'rejected', 'link-unreachable', 'owner-link'));
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_decision_audit_check";
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_decision_audit_check" CHECK ("kind" IN ('link-unreachable', 'owner-link') OR "audit_id" IS NOT NULL);
