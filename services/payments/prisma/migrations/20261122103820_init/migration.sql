-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL,
    "stripe_session_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "hold_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "plot_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "paid_at" TIMESTAMPTZ(6),
    "expired_at" TIMESTAMPTZ(6),

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "used_sessions" (
    "id" UUID NOT NULL,
    "session_id" TEXT NOT NULL,
    "plot_id" UUID NOT NULL,
    "used_at" TIMESTAMPTZ(6) NOT NULL,
    "ip_address" TEXT,

    CONSTRAINT "used_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_checkout_sessions" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "amount_total" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "x" INTEGER NOT NULL,
    "y" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "payment_status" TEXT NOT NULL DEFAULT 'unpaid',
    "metadata" JSONB NOT NULL,
    "success_url" TEXT NOT NULL,
    "cancel_url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "test_checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payments_stripe_session_id_key" ON "payments"("stripe_session_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_hold_id_key" ON "payments"("hold_id");

-- CreateIndex
CREATE INDEX "payments_status_expires_at_idx" ON "payments"("status", "expires_at");

-- CreateIndex
CREATE INDEX "payments_plot_id_idx" ON "payments"("plot_id");

-- CreateIndex
CREATE UNIQUE INDEX "used_sessions_session_id_key" ON "used_sessions"("session_id");

-- CreateIndex
CREATE UNIQUE INDEX "test_checkout_sessions_idempotency_key_key" ON "test_checkout_sessions"("idempotency_key");

-- Hand-written: the outbox relay scans only unpublished rows.
CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" ("created_at") WHERE "published_at" IS NULL;

-- Hand-written: the only states a payment or a test checkout session can be in.
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("status" IN ('pending', 'paid', 'expired'));
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_check" CHECK ("amount" > 0);
ALTER TABLE "test_checkout_sessions" ADD CONSTRAINT "test_checkout_sessions_status_check" CHECK ("status" IN ('open', 'complete', 'expired'));
ALTER TABLE "test_checkout_sessions" ADD CONSTRAINT "test_checkout_sessions_payment_status_check" CHECK ("payment_status" IN ('unpaid', 'paid'));
