-- DropTable
DROP TABLE "inbox_events";
