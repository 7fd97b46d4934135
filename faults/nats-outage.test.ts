import { rm } from 'node:fs/promises';
import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import {
  FaultLedger,
  expectAnsweredWritesStored,
  expectFlagsQueued,
  expectSessionsUsedByTheirPlots,
  outboxRows,
  outboxesDrained,
  unpublished,
} from './support/checks.ts';
import { faultStackForFile } from './support/stack.ts';
import { Visitor, api, buyMany, claimPlot, flagPlot, freeSpots, pool, sleep, spots, type PaidSession } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// NATS (the test's own nats-server) is killed for 10 s while 100 buyers claim and visitors flag and
// write in. Whatever a service answered 2xx must be in the database, and every event written in those
// transactions must reach JetStream once NATS is back and be applied once by its consumers.
const CLAIMS = 100;
const OUTAGE_MS = Number(process.env.FAULTS_NATS_OUTAGE_MS ?? 10_000);

oneShortFileAtATime();
const rig = faultStackForFile({ serviceEnv: { plots: { ENTITLEMENT_QUERY_TIMEOUT_MS: '2000' } } });

it(`NATS stopped for ${OUTAGE_MS / 1000} s during ${CLAIMS} claims, flags and contact messages: every 2xx is stored, every event delivered once`, async () => {
  const { stack, nats } = rig;
  const ledger = new FaultLedger(`NATS stopped for ${OUTAGE_MS / 1000} s during claims and flags`);
  // Paid before the window (checkout needs NATS to hold the spot).
  const sessions = await buyMany(stack, 'basic', spots(stack, 1, CLAIMS));

  const claimed = new Map<string, { plotId: string; status: number }>(); // sessionId → plot
  const okFlags = new Map<string, number>(); // plotId → visitor flags answered 2xx
  const contactIds: string[] = [];
  let outage: 'before' | 'during' | 'after' = 'before';
  const outcomes = { during: { claims: 0, claimOk: 0, flags: 0, flagOk: 0 } };

  // A buyer retries a failed claim (5xx / network) the way a person presses the button again.
  const claimUntilDone = async (session: PaidSession, index: number) => {
    await sleep(index * 120); // 100 buyers arriving over ~12 s
    for (let attempt = 0; attempt < 60; attempt++) {
      const phase = outage;
      const response = ledger.record('claim', await claimPlot(stack, session));
      if (phase === 'during') {
        outcomes.during.claims += 1;
        if (response.status < 300) outcomes.during.claimOk += 1;
      }
      if (response.status === 200 || response.status === 201) {
        claimed.set(session.sessionId, { plotId: response.body.plot.id, status: response.status });
        return;
      }
      if (response.status >= 400 && response.status < 500)
        throw new Error(`claim refused: ${response.status} ${JSON.stringify(response.body)}`);
      await sleep(500);
    }
    throw new Error(`claim for ${session.sessionId} never succeeded`);
  };

  // Visitors flag plots all along (a new plot first, else another visitor on a random one; each visitor
  // flags a plot once, retrying a failed attempt), and write in on the contact form.
  let trafficDone = false;
  const flagged = new Set<string>();
  const flagLoop = async () => {
    while (!trafficDone) {
      const plots = [...claimed.values()].map((c) => c.plotId);
      if (!plots.length) {
        await sleep(100);
        continue;
      }
      const fresh = plots.find((id) => !flagged.has(id));
      // plots is not empty (checked above)
      const plotId = fresh ?? plots[Math.floor(Math.random() * plots.length)]!;
      flagged.add(plotId);
      const visitor = new Visitor();
      for (let attempt = 0; attempt < 60; attempt++) {
        const phase = outage;
        const response = ledger.record('flag', await flagPlot(stack, plotId, visitor));
        if (phase === 'during') {
          outcomes.during.flags += 1;
          if (response.status < 300) outcomes.during.flagOk += 1;
        }
        if (response.status < 300) {
          okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
          break;
        }
        await sleep(500);
      }
      await sleep(50);
    }
  };
  const contactLoop = async () => {
    let i = 0;
    while (!trafficDone) {
      const response = ledger.record(
        'contact',
        await api(stack, 'POST', '/api/contact', {
          json: { name: `Writer ${i}`, email: `writer${i}@example.com`, subject: 'general', message: `Hello number ${i}` },
        }),
      );
      if (response.status === 201) contactIds.push(response.body.id);
      i += 1;
      await sleep(150);
    }
  };

  const faults = (async () => {
    await sleep(4000);
    outage = 'during';
    await nats.stop();
    ledger.fault(`nats-server killed (SIGKILL) for ${OUTAGE_MS / 1000} s, ${claimed.size} of ${CLAIMS} claims done at that moment`);
    await sleep(OUTAGE_MS);
    const waiting = await unpublished(stack.db);
    ledger.note(
      `events waiting in outboxes when NATS came back: ${
        Object.entries(waiting)
          .filter(([, n]) => n)
          .map(([schema, n]) => `${schema} ${n}`)
          .join(', ') || 'none'
      }`,
    );
    await nats.resume();
    outage = 'after';
  })();
  const background = [flagLoop(), flagLoop(), contactLoop()];
  await Promise.all([pool(sessions, CLAIMS, claimUntilDone), faults]);
  // Let the last plots be flagged, then stop the visitors.
  await eventually(async () => [...claimed.values()].every((c) => flagged.has(c.plotId)), 30_000);
  await sleep(1000);
  trafficDone = true;
  await Promise.all(background);
  ledger.note(
    `during the outage: ${outcomes.during.claims} claim attempts (${outcomes.during.claimOk} 2xx), ${outcomes.during.flags} flag attempts (${outcomes.during.flagOk} 2xx)`,
  );

  // 1. Every 2xx claim exists, one plot per session, and every paid buyer got one; every contact message answered 201 is stored.
  const { plotRows, plotBySession } = await expectAnsweredWritesStored(stack.db, ledger, {
    claims: new Map([...claimed].map(([sessionId, { plotId }]) => [sessionId, plotId])),
    contactIds,
  });
  expect(claimed.size).toBe(CLAIMS);
  expect(plotRows).toBe(CLAIMS);

  // 2. Every outbox row reaches JetStream once NATS is back, each exactly once in the stream.
  await outboxesDrained(stack.db, 60_000);
  const outbox = [
    ...(await outboxRows(stack.db, 'plots')),
    ...(await outboxRows(stack.db, 'payments')),
    ...(await outboxRows(stack.db, 'contact')),
    ...(await outboxRows(stack.db, 'moderation')),
    ...(await outboxRows(stack.db, 'map')),
  ];
  ledger.checked(outbox.length);
  const messages = await readStream(stack.stream);
  ledger.checked(messages.length);
  const inStream = new Map<string, number>();
  for (const m of messages) inStream.set(m.event.id, (inStream.get(m.event.id) ?? 0) + 1);
  const notInStream = outbox.filter((row) => !inStream.has(row.id)).length;
  const twiceInStream = [...inStream.values()].filter((n) => n > 1).length;
  ledger.missing(notInStream, 'outbox events never published');
  ledger.missing(twiceInStream, 'events published twice');
  expect(notInStream).toBe(0);
  expect(twiceInStream).toBe(0);
  expect(messages.every((m) => m.msgId === m.event.id)).toBe(true);

  // 3. Consumers: payments links every claimed plot's session once; plots has every paid entitlement once.
  await expectSessionsUsedByTheirPlots(stack.db, ledger, plotBySession, CLAIMS);
  const linked = await stack.db.count(`payments.payments WHERE plot_id IS NOT NULL AND status = 'paid'`);
  expect(linked).toBe(CLAIMS);
  const inbox = await stack.db.query<{ consumer: string; subject: string; n: number }>(
    `SELECT consumer, subject, count(*)::int AS n FROM payments.inbox_events GROUP BY 1, 2
     UNION ALL SELECT consumer, subject, count(*)::int FROM plots.inbox_events GROUP BY 1, 2
     UNION ALL SELECT consumer, subject, count(*)::int FROM moderation.inbox_events GROUP BY 1, 2`,
  );
  const inboxCount = (subject: string, consumer: string) => inbox.find((r) => r.subject === subject && r.consumer === consumer)?.n ?? 0;
  expect(inboxCount('plots.plot.claimed', 'payments')).toBe(CLAIMS);
  expect(inboxCount('payments.payment.verified', 'plots')).toBe(CLAIMS);
  expect(inboxCount('plots.plot.claimed', 'moderation')).toBe(CLAIMS);
  expect(await stack.db.count('plots.entitlements')).toBe(CLAIMS);
  ledger.checked(inbox.reduce((n, r) => n + r.n, 0) + CLAIMS);

  // 4. Moderation: every flagged plot is queued with exactly the number of flags visitors got a 2xx for.
  expect(await expectFlagsQueued(stack.db, ledger, okFlags)).toHaveLength(okFlags.size);
  ledger.print();
  expect(ledger.lost).toBe(0);
});

it('NATS restarted WITHOUT its JetStream store (a broker recreated without its volume): services declare the stream and consumers again; nothing in the outboxes is lost', async () => {
  const { stack, nats } = rig;
  const ledger = new FaultLedger('NATS restarted without its JetStream store');
  const sessions = await buyMany(stack, 'basic', await freeSpots(stack, 1, 10));
  await eventually(
    async () =>
      (await stack.db.count(`plots.entitlements WHERE session_id = ANY($1)`, [sessions.map((s) => s.sessionId)])) === sessions.length,
    30_000,
  );
  await outboxesDrained(stack.db, 30_000);
  const usedBefore = await stack.db.count('payments.used_sessions');

  // The broker dies and comes back empty: no stream, no durable consumers, no duplicate window.
  await nats.stop();
  await rm((nats as unknown as { storeDir: string }).storeDir, { recursive: true, force: true });
  await nats.resume();
  const resumedAt = Date.now();
  ledger.fault('nats-server killed and started again on an empty JetStream store directory');

  const plotIds: string[] = [];
  await pool(sessions, 4, async (session) => {
    for (let attempt = 0; attempt < 60; attempt++) {
      const response = ledger.record('claim', await claimPlot(stack, session));
      if (response.status === 201 || response.status === 200) {
        plotIds.push(response.body.plot.id);
        return;
      }
      if (response.status >= 400 && response.status < 500)
        throw new Error(`claim refused: ${response.status} ${JSON.stringify(response.body)}`);
      await sleep(500);
    }
  });
  expect(plotIds).toHaveLength(sessions.length);
  const okFlags = new Map<string, number>();
  for (const plotId of plotIds) {
    for (let v = 0; v < 2; v++) {
      const response = ledger.record('flag', await flagPlot(stack, plotId, new Visitor()));
      if (response.status < 300) okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
    }
  }

  // The relays declare the stream again and publish; the consumers' durables come back and apply everything.
  await outboxesDrained(stack.db, 60_000);
  const published = (Date.now() - resumedAt) / 1000;
  await eventually(async () => (await stack.db.count('payments.used_sessions')) === usedBefore + sessions.length, 90_000, 250);
  await eventually(
    async () => {
      const rows = await stack.db.query<{ plot_id: string; flag_count: number }>(
        `SELECT plot_id::text, flag_count FROM moderation.review_items WHERE plot_id = ANY($1::uuid[])`,
        [plotIds],
      );
      return rows.length === okFlags.size && rows.every((r) => r.flag_count === okFlags.get(r.plot_id));
    },
    60_000,
    250,
  );
  const applied = (Date.now() - resumedAt) / 1000;
  const used = await stack.db.query<{ session_id: string; plot_id: string }>(
    `SELECT session_id, plot_id::text FROM payments.used_sessions WHERE session_id = ANY($1)`,
    [sessions.map((s) => s.sessionId)],
  );
  ledger.checked(used.length + okFlags.size);
  ledger.missing(sessions.length - used.length, 'claims after the store was lost that never reached payments');
  const messages = await readStream(stack.stream);
  ledger.checked(messages.length);
  expect(new Set(messages.map((m) => m.event.id)).size).toBe(messages.length);
  ledger.note(
    `outboxes drained ${published.toFixed(1)} s after the empty broker came back; every consumer effect applied after ${applied.toFixed(1)} s, without restarting any service`,
  );
  ledger.print();
  expect(ledger.lost).toBe(0);
});
