import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import { FaultLedger, metricSum, metrics, outboxRows, outboxesDrained } from './support/checks.ts';
import { faultStackForFile, replica } from './support/stack.ts';
import { Visitor, buyMany, claimPlot, flagPlot, pool, sleep, spots } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// The two consumers of plots' events, moderation and payments, are killed with SIGKILL while events
// stream in (some delivered to them and not yet acknowledged), then started again. JetStream redelivers
// what they had not acknowledged (after the consumer's 30 s ack wait); the inbox makes every event's
// effect happen exactly once.
const CLAIMS = 80;
const FLAGGERS_PER_PLOT = 2;

oneShortFileAtATime();
const rig = faultStackForFile();

/** Delivered-but-unacknowledged and waiting messages of one service's durables. */
async function consumerState(durablePrefix: string): Promise<{ ackPending: number; pending: number }> {
  const { stream } = rig.stack;
  const nc = await connect(stream.connectOptions());
  try {
    const jsm = await jetstreamManager(nc);
    let ackPending = 0;
    let pending = 0;
    for await (const info of jsm.consumers.list(stream.stream)) {
      if (!info.name.startsWith(`${durablePrefix}-`)) continue;
      ackPending += info.num_ack_pending;
      pending += info.num_pending;
    }
    return { ackPending, pending };
  } finally {
    await nc.close();
  }
}

it('moderation and payments killed (SIGKILL) mid-stream and restarted: every effect happens exactly once', async () => {
  const { stack } = rig;
  const ledger = new FaultLedger('consumers (moderation, payments) killed mid-stream');
  const sessions = await buyMany(stack, 'basic', spots(stack, 1, CLAIMS));
  // Entitlements first, so claims need no query to payments while it is down (a claim with an unknown
  // session would wait for payments, which is not what this test is about).
  await eventually(async () => (await stack.db.count('plots.entitlements')) === CLAIMS, 30_000);

  const plotIds: string[] = [];
  const okFlags = new Map<string, number>();
  const flagOne = async (plotId: string) => {
    await Promise.all(
      Array.from({ length: FLAGGERS_PER_PLOT }, async () => {
        const response = ledger.record('flag', await flagPlot(stack, plotId, new Visitor()));
        if (response.status < 300) okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
      }),
    );
  };
  const claimAndFlag = async (session: (typeof sessions)[number]) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = ledger.record('claim', await claimPlot(stack, session));
      if (response.status < 300) {
        plotIds.push(response.body.plot.id);
        await flagOne(response.body.plot.id);
        return;
      }
      await sleep(300);
    }
    throw new Error(`claim for ${session.sessionId} never succeeded`);
  };

  // The stream: 8 buyers at a time. When a third of the claims are in, kill both consumers the moment
  // JetStream shows messages delivered to them and not yet acknowledged.
  const traffic = pool(sessions, 8, claimAndFlag);
  let burst: Promise<unknown> = Promise.resolve();
  const kill = (async () => {
    await eventually(async () => plotIds.length >= CLAIMS / 3, 60_000, 20);
    // A burst of flags on top of the claims, so moderation has a batch in hand when it dies.
    burst = Promise.all(
      plotIds.slice(0, 20).map(async (plotId) => {
        const response = ledger.record('flag', await flagPlot(stack, plotId, new Visitor()));
        if (response.status < 300) okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
      }),
    );
    const deadline = Date.now() + 15_000;
    let state = { payments: await consumerState('payments'), moderation: await consumerState('moderation') };
    while (Date.now() < deadline && (state.payments.ackPending === 0 || state.moderation.ackPending < 3)) {
      state = { payments: await consumerState('payments'), moderation: await consumerState('moderation') };
    }
    await Promise.all([replica(stack, 'payments').stop('SIGKILL'), replica(stack, 'moderation').stop('SIGKILL')]);
    ledger.fault(
      `payments killed (SIGKILL) with ${state.payments.ackPending} events delivered and unacknowledged, ${state.payments.pending} waiting; ${plotIds.length}/${CLAIMS} claims done`,
    );
    ledger.fault(
      `moderation killed (SIGKILL) with ${state.moderation.ackPending} events delivered and unacknowledged, ${state.moderation.pending} waiting`,
    );
    return state;
  })();
  const atKill = await kill;
  // Claims and flags go on while the consumers are down (plots does not need them), then they return.
  await sleep(3000);
  const [payments, moderation] = await Promise.all([stack.restart('payments'), stack.restart('moderation')]);
  ledger.note(`restarted payments (pid ${payments.child.pid}) and moderation (pid ${moderation.child.pid}) on their old ports`);
  await Promise.all([traffic, burst]);
  expect(plotIds).toHaveLength(CLAIMS);

  // Exactly once: one used session per claimed plot, one review-queue effect per event.
  await outboxesDrained(stack.db, 30_000);
  const flaggedEvents = (await outboxRows(stack.db, 'plots', 'plots.plot.flagged')).length;
  const inbox = async () =>
    stack.db.query<{ consumer: string; subject: string; n: number }>(
      `SELECT consumer, subject, count(*)::int AS n FROM payments.inbox_events GROUP BY 1, 2
       UNION ALL SELECT consumer, subject, count(*)::int FROM moderation.inbox_events GROUP BY 1, 2`,
    );
  const count = (rows: Awaited<ReturnType<typeof inbox>>, consumer: string, subject: string) =>
    rows.find((r) => r.consumer === consumer && r.subject === subject)?.n ?? 0;
  // Unacknowledged deliveries come back after the 30 s ack wait.
  const finalInbox = await eventually(
    async () => {
      const rows = await inbox();
      return count(rows, 'payments', 'plots.plot.claimed') === CLAIMS &&
        count(rows, 'moderation', 'plots.plot.claimed') === CLAIMS &&
        count(rows, 'moderation', 'plots.plot.flagged') === flaggedEvents
        ? rows
        : null;
    },
    90_000,
    500,
  );
  ledger.checked(finalInbox.reduce((n, r) => n + r.n, 0));

  const used = await stack.db.query<{ session_id: string; n: number }>(
    `SELECT session_id, count(*)::int AS n FROM payments.used_sessions GROUP BY 1`,
  );
  ledger.checked(used.length);
  expect(used).toHaveLength(CLAIMS);
  expect(used.every((u) => u.n === 1)).toBe(true);
  const plots = await stack.db.query<{ id: string; stripe_session_id: string }>(`SELECT id::text, stripe_session_id FROM plots.plots`);
  ledger.checked(plots.length);
  const linked = await stack.db.query<{ stripe_session_id: string; plot_id: string | null }>(
    `SELECT stripe_session_id, plot_id::text FROM payments.payments WHERE status = 'paid'`,
  );
  ledger.checked(linked.length);
  const plotOf = new Map(plots.map((p) => [p.stripe_session_id, p.id]));
  const unlinked = linked.filter((p) => plotOf.get(p.stripe_session_id) !== p.plot_id).length;
  ledger.missing(unlinked, 'payments not linked to their plot');
  ledger.missing(CLAIMS - used.length, 'claimed plots without a used_sessions row');
  expect(unlinked).toBe(0);

  const queue = await stack.db.query<{ plot_id: string; flag_count: number; n: number }>(
    `SELECT plot_id::text, max(flag_count)::int AS flag_count, count(*)::int AS n FROM moderation.review_items GROUP BY 1`,
  );
  ledger.checked(queue.length);
  const byPlot = new Map(queue.map((q) => [q.plot_id, q]));
  let wrong = 0;
  for (const [plotId, n] of okFlags) if (byPlot.get(plotId)?.flag_count !== n || byPlot.get(plotId)?.n !== 1) wrong += 1;
  ledger.missing(wrong, 'flagged plots whose review item is missing, doubled or miscounted');
  expect(wrong).toBe(0);

  // The restarted processes saw the redeliveries: anything applied before the kill but not acknowledged was a duplicate.
  const [paymentsMetrics, moderationMetrics] = await Promise.all([metrics(payments.url), metrics(moderation.url)]);
  const redelivered = metricSum(paymentsMetrics, 'events_redelivered_total') + metricSum(moderationMetrics, 'events_redelivered_total');
  const duplicates =
    metricSum(paymentsMetrics, 'events_handled_total', { outcome: 'duplicate' }) +
    metricSum(moderationMetrics, 'events_handled_total', { outcome: 'duplicate' });
  ledger.note(
    `in flight at the kill: payments ${atKill.payments.ackPending}, moderation ${atKill.moderation.ackPending}; after restart ${redelivered} redeliveries, ${duplicates} recognised as already applied`,
  );
  ledger.print();
  expect(atKill.payments.ackPending + atKill.moderation.ackPending).toBeGreaterThan(0);
  expect(ledger.lost).toBe(0);
});
