import { rm } from 'node:fs/promises';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import { FaultLedger, auditConsumers, metricSum, metrics, outboxesDrained } from './support/checks.ts';
import { ADMIN, LongTraffic, expectCompleteLedger, settleAndReport } from './support/long-outage.ts';
import { oneShortFileAtATime } from './support/serial.ts';
import { faultStackForFile, replica } from './support/stack.ts';

// JetStream acknowledges a write before it is on disk (Jepsen, NATS 2.12.1): a broker that crashes, or comes back
// without its store, loses events every outbox already marked published, and no consumer would ever see them. Here
// the loss is made certain rather than left to luck: payments (a consumer of plots.plot.claimed) is killed, claims go
// on (the stream acknowledges their events, which wait for payments' durable), then nats-server is SIGKILLed, its
// JetStream store deleted, and started again empty on the same port. payments comes back; only the reconcilers
// (reconcile.ts: each consumer compares its producers' published outbox ids with its inbox, past a grace period) can
// apply what the broker lost. The long faults' ledger must become complete, without the stream check (the stream
// really lost those events).
const GRACE_MS = 5_000;
const CLAIMS = 24;

oneShortFileAtATime();
const rig = faultStackForFile({
  replicas: { contact: 0 },
  env: { RECONCILE_GRACE_MS: String(GRACE_MS), RECONCILE_INTERVAL_MS: '1000' },
  serviceEnv: {
    gateway: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    plots: { CLAIM_MAX_ATTEMPTS_PER_SESSION: '100000' },
  },
});

const title = 'NATS SIGKILLed and started on an empty store under claims, flags and moderation';

it(
  `${title}: the reconcilers apply what the broker lost; no 2xx lost, every event applied once, no dead letter`,
  async () => {
    const { stack, nats } = rig;
    const ledger = new FaultLedger(title);
    const traffic = new LongTraffic(stack, ledger, { claims: CLAIMS, arrivalSpreadMs: 30_000 });
    await traffic.prepare();
    let repaired = 0;
    try {
      traffic.start();
      await eventually(async () => traffic.claimed.size >= 4, 60_000, 100);

      // payments stops consuming: whatever plots publishes from now on is held by the broker alone.
      const payments = replica(stack, 'payments');
      await payments.stop('SIGKILL');
      traffic.phase('during');
      const claimedBefore = traffic.claimed.size;
      await eventually(async () => traffic.claimed.size >= claimedBefore + 5, 90_000, 100);
      // Every event written so far acknowledged by the stream (the outboxes marked them published) ...
      await outboxesDrained(stack.db, 30_000);
      const pending = await auditConsumers(stack.db, stack.stream);
      const unapplied = pending.missing.length;
      const byConsumer = pending.byConsumer
        .filter((c) => c.expected > c.applied)
        .map((c) => `${c.consumer} ${c.type} ${c.expected - c.applied}`);

      // ... then the broker dies and comes back without them.
      await nats.stop();
      await rm(nats.storeDir, { recursive: true, force: true });
      await nats.resume();
      const restartedAt = Date.now();
      traffic.phase('after');
      ledger.fault(
        `payments SIGKILLed during ${traffic.claimed.size - claimedBefore} claims; nats-server SIGKILLed, its JetStream store deleted, started again empty`,
      );
      ledger.note(`events acknowledged by the stream and not yet applied when it died: ${unapplied} (${byConsumer.join(', ') || 'none'})`);
      await stack.restart('payments');
      ledger.fault('payments started again on its port (its durables declared on the empty stream)');
      ledger.note(`payments ready again ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the broker restarted`);

      // Every event the broker lost applied by the reconcilers: the time from the broker's restart.
      const lost = new Set(pending.missing.map((m) => `${m.consumer} ${m.eventId}`));
      await eventually(
        async () => {
          const now = await auditConsumers(stack.db, stack.stream);
          return !now.missing.some((m) => lost.has(`${m.consumer} ${m.eventId}`));
        },
        120_000,
        250,
      );
      ledger.note(
        `every event the broker lost applied ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after it restarted (grace ${GRACE_MS / 1000} s)`,
      );

      const audit = await settleAndReport(stack, traffic, ledger, restartedAt, {
        stream: false,
        async beforePrint(ledger) {
          for (const p of stack.processes()) repaired += metricSum(await metrics(p.metricsUrl), 'events_reconciled_total');
          ledger.note(`events repaired by the reconcilers (events_reconciled_total): ${repaired}`);
        },
      });
      expect(unapplied).toBeGreaterThan(0);
      expect(repaired).toBeGreaterThan(0);
      expect(audit.lost).toEqual([]);
      expect(audit.twice).toEqual([]);
      expectCompleteLedger(traffic, ledger);
    } finally {
      traffic.abort();
    }
  },
  10 * 60_000,
);
