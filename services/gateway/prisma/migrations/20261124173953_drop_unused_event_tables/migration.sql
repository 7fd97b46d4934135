-- DropTable
DROP TABLE "inbox_events";

-- DropTable
DROP TABLE "outbox_events";
