import type { ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { assert, describe, expect, it } from 'vitest';
import { FaultLedger, metricSum, metrics, outboxRows, outboxesDrained } from './support/checks.ts';
import { faultStackForFile, replica } from './support/stack.ts';
import { Visitor, api, buyMany, claimPlot, flagPlot, freeSpots, pool, spots } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// Two plots and two payments processes behind one gateway (comma-separated upstream lists), sharing one
// database and stream, logging at info so one request id can be followed across processes.
const CLAIMS = 30;

oneShortFileAtATime();
const rig = faultStackForFile({ replicas: { plots: 2, payments: 2, contact: 0 }, logLevel: 'info' });

/** The JSON log lines a process printed. */
function logLines(process: ServiceProcess): Array<Record<string, any>> {
  const out: Array<Record<string, any>> = [];
  for (const line of process.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a partial line at the end of the buffer
    }
  }
  return out;
}

async function listed(replica: ServiceProcess): Promise<{ ids: Set<string>; etag: string | null }> {
  const response = await fetch(`${replica.url}/api/plots`);
  const plots = (await response.json()) as Array<{ id: string }>;
  return { ids: new Set(plots.map((p) => p.id)), etag: response.headers.get('etag') };
}

describe('two replicas of plots and of payments behind one gateway', () => {
  it('claims, flags and reads across replicas: holds and claims stay correct, caches invalidated on both, each event handled once, no double publish', async () => {
    const { stack } = rig;
    const ledger = new FaultLedger('two replicas of plots and payments behind one gateway');
    const [plotsA, plotsB] = [replica(stack, 'plots', 0), replica(stack, 'plots', 1)];
    const [paymentsA, paymentsB] = [replica(stack, 'payments', 0), replica(stack, 'payments', 1)];

    // A hold is one hold whichever payments replica takes the checkout: six buyers, one square, at once.
    const [contested] = spots(stack, 2, 1);
    assert(contested);
    const race = await Promise.all(
      Array.from({ length: 6 }, async () =>
        ledger.record('checkout', await api(stack, 'POST', '/api/create-checkout-session', { json: { tier: 'featured', ...contested } })),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);

    const sessions = await buyMany(
      stack,
      'basic',
      spots(stack, 1, CLAIMS, (x, y) => x >= contested.x && x < contested.x + 2 && y >= contested.y && y < contested.y + 2),
    );
    const created = await Promise.all(
      [paymentsA, paymentsB].map(async (p) => metricSum(await metrics(p.url), 'checkout_sessions_created_total')),
    );
    ledger.note(`checkouts created per payments replica: ${created.join(' / ')}`);
    expect(created.every((n) => n > 0)).toBe(true);

    // Warm both list caches, then claim through the gateway (round-robin over both plots replicas).
    await Promise.all([listed(plotsA), listed(plotsB)]);
    const plotIds: string[] = [];
    const seenByOther: number[] = [];
    await pool(sessions, 4, async (session) => {
      const response = ledger.record('claim', await claimPlot(stack, session));
      expect(response.status).toBe(201);
      const plotId = response.body.plot.id;
      plotIds.push(plotId);
      // Both replicas list the new plot promptly, whichever made it (the other one hears the event).
      const t0 = Date.now();
      await eventually(async () => (await listed(plotsA)).ids.has(plotId) && (await listed(plotsB)).ids.has(plotId), 10_000, 20);
      seenByOther.push(Date.now() - t0);
      // Reads through the gateway hit both replicas in turn.
      for (let i = 0; i < 2; i++) expect(ledger.record('read', await api(stack, 'GET', `/api/plots/${plotId}`)).status).toBe(200);
    });
    const madeBy = (replica: ServiceProcess) =>
      new Set(
        logLines(replica)
          .filter((l) => l.msg === 'plot claimed')
          .map((l) => l.plotId),
      );
    const [byA, byB] = [madeBy(plotsA), madeBy(plotsB)];
    ledger.note(
      `claims per plots replica: ${byA.size} / ${byB.size}; every plot listed by both replicas within ${Math.max(...seenByOther)} ms (median ${seenByOther.sort((a, b) => a - b)[seenByOther.length >> 1]} ms)`,
    );
    expect(byA.size + byB.size).toBe(CLAIMS);
    expect(byA.size).toBeGreaterThan(0);
    expect(byB.size).toBeGreaterThan(0);

    // Flags through both replicas: each visitor flags twice (the gateway sends the two to different replicas): one flag each.
    const okFlags = new Map<string, number>();
    await pool(plotIds.slice(0, 10), 4, async (plotId, i) => {
      for (let v = 0; v < 1 + (i % 3); v++) {
        const visitor = new Visitor();
        expect(ledger.record('flag', await flagPlot(stack, plotId, visitor)).status).toBe(200);
        expect(ledger.record('flag', await flagPlot(stack, plotId, visitor)).status).toBe(200);
        okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
      }
    });

    // Each event handled once across the replicas of its consumer (a shared durable), and every outbox row
    // published by exactly one relay.
    await outboxesDrained(stack.db, 30_000);
    const claimedEvents = await outboxRows(stack.db, 'plots', 'plots.plot.claimed');
    const flaggedEvents = await outboxRows(stack.db, 'plots', 'plots.plot.flagged');
    const verifiedEvents = await outboxRows(stack.db, 'payments', 'payments.payment.verified');
    expect(claimedEvents).toHaveLength(CLAIMS);
    expect(verifiedEvents).toHaveLength(CLAIMS);
    expect(flaggedEvents).toHaveLength([...okFlags.values()].reduce((a, b) => a + b, 0));
    await eventually(async () => (await stack.db.count('payments.used_sessions')) === CLAIMS, 20_000);
    await eventually(async () => (await stack.db.count('moderation.inbox_events')) === CLAIMS + flaggedEvents.length, 20_000);
    const applied = async (replicas: ServiceProcess[], consumer: string) => {
      const per = await Promise.all(
        replicas.map(async (r) => metricSum(await metrics(r.url), 'events_handled_total', { consumer, outcome: 'applied' })),
      );
      const dup = await Promise.all(
        replicas.map(async (r) => metricSum(await metrics(r.url), 'events_handled_total', { consumer, outcome: 'duplicate' })),
      );
      return { per, total: per.reduce((a, b) => a + b, 0), duplicates: dup.reduce((a, b) => a + b, 0) };
    };
    const paymentsApplied = await applied(stack.replicas.payments, 'payments');
    const plotsApplied = await applied(stack.replicas.plots, 'plots');
    ledger.note(
      `payments.payment.verified applied by plots replicas ${plotsApplied.per.join(' + ')} = ${plotsApplied.total} (${CLAIMS} events); plots.plot.claimed applied by payments replicas ${paymentsApplied.per.join(' + ')} = ${paymentsApplied.total} (${CLAIMS} events); duplicates seen ${plotsApplied.duplicates + paymentsApplied.duplicates}`,
    );
    expect(paymentsApplied.total).toBe(CLAIMS);
    expect(plotsApplied.total).toBe(CLAIMS);
    const inbox = await stack.db.query<{ event_id: string; n: number }>(
      `SELECT event_id::text, count(*)::int AS n FROM payments.inbox_events GROUP BY 1 UNION ALL SELECT event_id::text, count(*)::int FROM plots.inbox_events GROUP BY 1`,
    );
    ledger.checked(inbox.length);
    expect(inbox.every((r) => r.n === 1)).toBe(true);

    const published = async (replicas: ServiceProcess[]) =>
      (await Promise.all(replicas.map(async (r) => metricSum(await metrics(r.url), 'outbox_events_published_total')))).reduce(
        (a, b) => a + b,
        0,
      );
    const plotsOutbox = await outboxRows(stack.db, 'plots');
    const paymentsOutbox = await outboxRows(stack.db, 'payments');
    ledger.checked(plotsOutbox.length + paymentsOutbox.length);
    expect(await published(stack.replicas.plots)).toBe(plotsOutbox.length);
    expect(await published(stack.replicas.payments)).toBe(paymentsOutbox.length);
    const stream = await readStream(stack.stream);
    ledger.checked(stream.length);
    const ids = stream.map((m) => m.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    ledger.note(
      `relays published ${plotsOutbox.length} plots and ${paymentsOutbox.length} payments outbox rows exactly once (sum of both replicas' counters = rows)`,
    );

    const counts = new Map(
      (
        await stack.db.query<{ plot_id: string; flag_count: number }>(
          `SELECT plot_id::text, flag_count FROM moderation.review_items WHERE status = 'pending'`,
        )
      ).map((r) => [r.plot_id, r.flag_count]),
    );
    ledger.checked(counts.size);
    for (const [plotId, n] of okFlags) expect(counts.get(plotId)).toBe(n);
    expect(await stack.db.count('plots.plots')).toBe(CLAIMS);
    ledger.print();
    expect(ledger.lost).toBe(0);
  });

  it('one request id followed end to end: gateway log, service log, outbox row, the consumer’s log', async () => {
    const { stack } = rig;
    const [spot] = await freeSpots(stack, 1, 1);
    assert(spot);
    // Paying is a request too: its id travels with payments.payment.verified to plots.
    const visitor = new Visitor();
    const checkout = await api(stack, 'POST', '/api/create-checkout-session', { json: { tier: 'basic', ...spot }, visitor });
    expect(checkout.status).toBe(200);
    const pay = await api(stack, 'POST', `${new URL(checkout.body.url, 'http://gateway').pathname}/pay`, { form: '', visitor });
    expect(pay.status).toBe(303);
    const session = { sessionId: checkout.body.sessionId as string, tier: 'basic' as const, ...spot, visitor };
    const verified = (await outboxRows(stack.db, 'payments', 'payments.payment.verified')).find(
      (r) => r.payload.data.sessionId === session.sessionId,
    );
    assert(verified, 'payments wrote the payment.verified event');
    expect(verified.request_id).toBe(pay.requestId);
    const plotsHandledPayment = await eventually(
      async () =>
        stack.replicas.plots.flatMap((p) => logLines(p)).find((l) => l.msg === 'event handled' && l.eventId === verified.id) ?? null,
      15_000,
    );
    expect(plotsHandledPayment).toMatchObject({ requestId: pay.requestId, eventType: 'payments.payment.verified', service: 'plots' });

    const response = await claimPlot(stack, session);
    expect(response.status).toBe(201);
    const requestId = response.requestId!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const plotId = response.body.plot.id;

    // The gateway minted it and logged the request under it.
    // (Log lines reach the pipe a moment after the response: poll.)
    const gatewayLines = await eventually(async () => {
      const lines = logLines(stack.gateway).filter((l) => l.requestId === requestId);
      return lines.some((l) => l.msg === 'request completed') ? lines : null;
    }, 5000);
    expect(gatewayLines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    // The plots replica that served the claim logged under the same id (it trusts the gateway's id with the internal token).
    const plotsLines = await eventually(async () => {
      const lines = stack.replicas.plots.flatMap((p) =>
        logLines(p)
          .filter((l) => l.requestId === requestId)
          .map((l): Record<string, any> => ({ ...l, replica: p.url })),
      );
      return lines.some((l) => l.msg === 'request completed') ? lines : null;
    }, 5000);
    expect(plotsLines.find((l) => l.msg === 'plot claimed')).toMatchObject({ plotId, service: 'plots' });
    expect(new Set(plotsLines.map((l) => l.replica)).size).toBe(1);
    // The outbox row carries it, in its column and in the envelope.
    const row = (await outboxRows(stack.db, 'plots', 'plots.plot.claimed')).find((r) => r.payload.data.plotId === plotId);
    assert(row, 'plots wrote the plot.claimed event');
    expect(row.request_id).toBe(requestId);
    expect(row.payload.requestId).toBe(requestId);
    // Each consumer that handled the event logged it under the same id, with the event id.
    const handled = async (replicas: ServiceProcess[]) =>
      eventually(
        async () => replicas.flatMap((p) => logLines(p)).find((l) => l.msg === 'event handled' && l.eventId === row.id) ?? null,
        15_000,
      );
    const paymentsLine = await handled(stack.replicas.payments);
    const moderationLine = await handled(stack.replicas.moderation);
    expect(paymentsLine).toMatchObject({ requestId, eventId: row.id, eventType: 'plots.plot.claimed', service: 'payments' });
    expect(moderationLine).toMatchObject({ requestId, eventId: row.id, eventType: 'plots.plot.claimed', service: 'moderation' });
    console.log(
      [
        `── request id ${requestId} followed end to end`,
        `   gateway: ${gatewayLines.length} log lines (${[...new Set(gatewayLines.map((l) => l.msg))].join(', ')})`,
        // plotsLines holds at least the 'request completed' line (awaited above)
        `   plots (${plotsLines[0]!.replica}): ${plotsLines.length} log lines (${[...new Set(plotsLines.map((l) => l.msg))].join(', ')})`,
        `   plots.outbox_events ${row.id}: request_id = ${row.request_id}`,
        `   payments: 'event handled' eventId ${paymentsLine.eventId} requestId ${paymentsLine.requestId}`,
        `   moderation: 'event handled' eventId ${moderationLine.eventId} requestId ${moderationLine.requestId}`,
        `── and the payment before it: POST .../pay x-request-id ${pay.requestId} → payments.outbox_events ${verified.id} request_id ${verified.request_id} → plots 'event handled' requestId ${plotsHandledPayment.requestId}`,
      ].join('\n'),
    );
  });
});
