-- CreateTable
CREATE TABLE "dead_letter_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "event_id" UUID,
    "consumer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "first_failed_at" TIMESTAMPTZ(6) NOT NULL,
    "last_failed_at" TIMESTAMPTZ(6) NOT NULL,
    "replayed_at" TIMESTAMPTZ(6),

    CONSTRAINT "dead_letter_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dead_letter_events_consumer_event_id_key" ON "dead_letter_events"("consumer", "event_id");
