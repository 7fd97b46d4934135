import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { STRIPE_WEBHOOK_SECRET, fakeStripeEnv, startFakeStripe, type FakeStripe } from '@pixel-atlas/test-stack/fake-stripe';
import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FaultLedger, metricSum, metrics, outboxRows, outboxesDrained } from './support/checks.ts';
import { faultStackForFile } from './support/stack.ts';
import { Visitor, api, claimPlot, flagPlot, pool, spots, type PaidSession } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// Stripe's notices arrive late, twice, and out of order; JetStream may hand a consumer the same event
// again (a relay that crashed between publish and mark re-publishes it under another message id).
// Each must have one effect. Payments uses the real Stripe SDK against the local fake of Stripe's API.
const PAID = 12;
const EXPIRED = 6;
const PAID_THEN_EXPIRED = 6;

let fake: FakeStripe;
const signer = new Stripe('sk_test_signer_only', { telemetry: false });

oneShortFileAtATime();
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake?.close());
const rig = faultStackForFile({ replicas: { contact: 0 } }, () => ({ serviceEnv: { payments: fakeStripeEnv(fake) } }));

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    // j <= i < out.length
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

it('duplicate and reordered Stripe webhooks, duplicate and reordered NATS deliveries: one effect each', async () => {
  const { stack } = rig;
  const ledger = new FaultLedger('duplicate / reordered Stripe webhooks and NATS deliveries');
  const webhook = async (event: Record<string, unknown>) => {
    const payload = JSON.stringify(event);
    return ledger.record(
      'webhook',
      await api(stack, 'POST', '/api/payments/stripe-webhook', {
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET }),
        },
        raw: payload, // the exact bytes the signature covers
      }),
    );
  };

  // Checkout sessions through the gateway, at Stripe (the fake).
  const places = spots(stack, 1, PAID + EXPIRED + PAID_THEN_EXPIRED);
  const sessions = await pool(places, 8, async (place) => {
    const visitor = new Visitor();
    const created = ledger.record(
      'checkout',
      await api(stack, 'POST', '/api/create-checkout-session', { json: { tier: 'basic', ...place }, visitor }),
    );
    if (created.status !== 200) throw new Error(`checkout: ${created.status} ${JSON.stringify(created.body)}`);
    return { sessionId: created.body.sessionId as string, tier: 'basic' as const, ...place, visitor };
  });
  const paid = sessions.slice(0, PAID);
  const expired = sessions.slice(PAID, PAID + EXPIRED);
  const paidThenExpired = sessions.slice(PAID + EXPIRED);

  // Paid sessions: the completed notice three times (same Stripe event), async_payment_succeeded, a stale
  // 'expired' notice, and the buyer's browser verifying, all at once in random order.
  await Promise.all(
    paid.map(async (s) => {
      fake.complete(s.sessionId);
      const completed = fake.event('checkout.session.completed', s.sessionId);
      const notices = [
        () => webhook(completed),
        () => webhook(completed),
        () => webhook(completed),
        () => webhook(fake.event('checkout.session.async_payment_succeeded', s.sessionId)),
        () => webhook({ ...fake.event('checkout.session.completed', s.sessionId), type: 'checkout.session.expired' }),
        async () => ledger.record('verify', await api(stack, 'GET', `/api/verify-session/${s.sessionId}`)),
      ];
      const answers = await Promise.all(shuffle(notices).map((send) => send()));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }),
  );
  ledger.fault(
    `${PAID} paid sessions: each got 3 copies of one completed notice, async_payment_succeeded, a stale expired notice and a verify, concurrently, shuffled`,
  );
  // Expired sessions: the expired notice twice, and a completed notice sent late (Stripe says expired).
  await Promise.all(
    expired.map(async (s) => {
      fake.expire(s.sessionId);
      const notice = fake.event('checkout.session.expired', s.sessionId);
      const answers = await Promise.all(
        shuffle([
          () => webhook(notice),
          () => webhook(notice),
          () => webhook({ ...fake.event('checkout.session.expired', s.sessionId), type: 'checkout.session.completed' }),
        ]).map((send) => send()),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    }),
  );
  ledger.fault(`${EXPIRED} expired sessions: the expired notice twice and a completed notice, concurrently`);
  // Paid, then an expired notice (out of order, after completion): paid stays paid.
  for (const s of paidThenExpired) {
    fake.complete(s.sessionId);
    expect((await webhook(fake.event('checkout.session.completed', s.sessionId))).status).toBe(200);
    fake.expire(s.sessionId);
    expect((await webhook(fake.event('checkout.session.expired', s.sessionId))).status).toBe(200);
    expect((await webhook(fake.event('checkout.session.expired', s.sessionId))).status).toBe(200);
  }
  ledger.fault(`${PAID_THEN_EXPIRED} sessions completed, then reported expired twice`);

  const payments = await stack.db.query<{ stripe_session_id: string; status: string }>(
    `SELECT stripe_session_id, status FROM payments.payments`,
  );
  ledger.checked(payments.length);
  const statusOf = new Map(payments.map((p) => [p.stripe_session_id, p.status]));
  for (const s of [...paid, ...paidThenExpired]) expect(statusOf.get(s.sessionId)).toBe('paid');
  for (const s of expired) expect(statusOf.get(s.sessionId)).toBe('expired');
  await outboxesDrained(stack.db, 30_000);
  const verified = await outboxRows(stack.db, 'payments', 'payments.payment.verified');
  const expiredEvents = await outboxRows(stack.db, 'payments', 'payments.checkout.expired');
  ledger.checked(verified.length + expiredEvents.length);
  const perSession = (rows: typeof verified) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(r.payload.data.sessionId, (m.get(r.payload.data.sessionId) ?? 0) + 1);
    return m;
  };
  const verifiedPer = perSession(verified);
  const twiceVerified = [...verifiedPer.values()].filter((n) => n > 1).length;
  ledger.missing(twiceVerified, 'sessions verified twice');
  ledger.missing(PAID + PAID_THEN_EXPIRED - verifiedPer.size, 'paid sessions never verified');
  expect(verifiedPer.size).toBe(PAID + PAID_THEN_EXPIRED);
  expect(twiceVerified).toBe(0);
  expect([...perSession(expiredEvents).keys()].sort()).toEqual(expired.map((s) => s.sessionId).sort());
  expect(expiredEvents).toHaveLength(EXPIRED);
  // Expired sessions' holds are released; paid ones became one entitlement each.
  await eventually(
    async () =>
      (await stack.db.query(`SELECT 1 FROM plots.footprints WHERE session_id = ANY($1)`, [expired.map((s) => s.sessionId)])).length === 0,
    20_000,
  );
  await eventually(async () => (await stack.db.count('plots.entitlements')) === PAID + PAID_THEN_EXPIRED, 20_000);

  // Claims by every paying buyer, and flags from visitors, so every consumer has events to see twice.
  const buyers: PaidSession[] = [...paid, ...paidThenExpired];
  const claimed = await pool(buyers, 6, async (s) => {
    const response = ledger.record('claim', await claimPlot(stack, s));
    expect(response.status).toBe(201);
    return response.body.plot.id;
  });
  await pool(claimed.slice(0, 8), 4, async (plotId, i) => {
    for (let v = 0; v <= i % 3; v++) expect(ledger.record('flag', await flagPlot(stack, plotId, new Visitor())).status).toBe(200);
  });
  await outboxesDrained(stack.db, 30_000);
  const consumersOf: Record<string, string[]> = {
    'payments.payment.verified': ['plots'],
    'payments.checkout.expired': ['plots'],
    'plots.plot.claimed': ['payments', 'moderation'],
    'plots.plot.flagged': ['moderation'],
  };
  const inboxTotal = async () => {
    const [row] = await stack.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM plots.inbox_events) + (SELECT count(*) FROM payments.inbox_events)
        + (SELECT count(*) FROM moderation.inbox_events) AS n`,
    );
    return Number(row?.n);
  };
  const events = (await readStream(stack.stream)).filter((m) => m.event.type in consumersOf);
  const expectedInbox = events.reduce((n, m) => n + (consumersOf[m.event.type]?.length ?? 0), 0);
  await eventually(async () => (await inboxTotal()) === expectedInbox, 30_000);

  const effects = async () => ({
    used: await stack.db.query(`SELECT session_id, plot_id::text, used_at FROM payments.used_sessions ORDER BY session_id`),
    entitlements: await stack.db.query(`SELECT session_id, tier, paid_at FROM plots.entitlements ORDER BY session_id`),
    payments: await stack.db.query(
      `SELECT stripe_session_id, status, plot_id::text, paid_at, expired_at FROM payments.payments ORDER BY stripe_session_id`,
    ),
    reviews: await stack.db.query(
      `SELECT plot_id::text, status, source, flag_count, reasons FROM moderation.review_items ORDER BY plot_id`,
    ),
    contacts: await stack.db.query(`SELECT plot_id::text FROM moderation.plot_contacts ORDER BY plot_id`),
    holds: await stack.db.query(`SELECT id::text FROM plots.footprints ORDER BY id`),
  });
  const before = await effects();
  const processes = [...stack.replicas.plots, ...stack.replicas.payments, ...stack.replicas.moderation];
  const duplicatesSeen = async () => {
    let n = 0;
    for (const p of processes) n += metricSum(await metrics(p.url), 'events_handled_total', { outcome: 'duplicate' });
    return n;
  };
  const duplicatesBefore = await duplicatesSeen();

  // Every consumed event again, newest first (reordered), under a new Nats-Msg-Id so JetStream delivers it;
  // and once more under its own id, which the stream's duplicate window must drop.
  const nc = await connect(stack.stream.connectOptions());
  let droppedByStream = 0;
  try {
    const js = jetstream(nc);
    for (const m of [...events].reverse()) {
      await js.publish(m.subject, JSON.stringify(m.event), { msgID: `${m.event.id}:redelivered` });
      const same = await js.publish(m.subject, JSON.stringify(m.event), { msgID: m.event.id });
      if (same.duplicate) droppedByStream += 1;
    }
  } finally {
    await nc.close();
  }
  ledger.fault(
    `${events.length} consumed events re-published newest first under new message ids (${expectedInbox} deliveries to consumers), and ${events.length} more under their own ids`,
  );
  expect(droppedByStream).toBe(events.length);
  await eventually(async () => (await duplicatesSeen()) - duplicatesBefore >= expectedInbox, 30_000, 250);
  const duplicatesHandled = (await duplicatesSeen()) - duplicatesBefore;
  expect(duplicatesHandled).toBe(expectedInbox);
  const after = await effects();
  ledger.checked(Object.values(after).reduce((n, rows) => n + rows.length, 0) * 2);
  expect(after).toEqual(before);
  expect(Number(await inboxTotal())).toBe(expectedInbox);
  ledger.note(
    `stream dropped ${droppedByStream} same-id copies; consumers recognised ${duplicatesHandled} redelivered copies as already applied; effects (used sessions, entitlements, payments, review queue, holds) unchanged`,
  );
  const counts = new Map((before.reviews as Array<{ plot_id: string; flag_count: number }>).map((r) => [r.plot_id, r.flag_count]));
  for (const [i, plotId] of claimed.slice(0, 8).entries()) expect(counts.get(plotId)).toBe((i % 3) + 1);
  ledger.print();
  expect(ledger.lost).toBe(0);
});
