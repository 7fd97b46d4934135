import { eventually } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import { FaultLedger, expectSessionsUsedByTheirPlots, overlappingFootprints, overlappingPlots } from './support/checks.ts';
import { faultStackForFile, replica } from './support/stack.ts';
import { api, buyMany, claimPlot, pool, sleep, spots, type PaidSession } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// Two plots replicas behind the gateway; buyers of 2×2 plots race for the same squares (groups of four
// whose squares all share one tile) while one replica is killed with SIGKILL mid-run. Whatever happened
// to a request, PostgreSQL must hold no overlap, no session may buy twice, and every paid buyer must end
// with a plot or with an entitlement still unused (a 409 they can retry elsewhere).
const GROUPS = 16; // 64 buyers
const BUYERS = GROUPS * 4;

oneShortFileAtATime();
const rig = faultStackForFile({ replicas: { plots: 2, contact: 0 } });

const overlaps = (a: { x: number; y: number; size: number }, b: { x: number; y: number; size: number }) =>
  a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;

it('a plots replica killed during concurrent contested claims: no overlap, no session twice, no paid buyer without a plot or entitlement', async () => {
  const { stack } = rig;
  const ledger = new FaultLedger('plots replica killed during concurrent claims');
  // Each buyer's checkout holds a 2×2 square of its own; then they all try for contested 3×3 land blocks.
  const held = spots(stack, 2, BUYERS);
  const blocks = spots(stack, 3, GROUPS, (x, y, size) => held.some((h) => overlaps({ x, y, size }, { ...h, size: 2 })));
  const sessions = await buyMany(stack, 'featured', held);
  const targets = blocks.flatMap((b) => [0, 1, 2, 3].map((i) => ({ x: b.x + (i % 2), y: b.y + (i >> 1) })));

  const outcome = new Map<string, { plotId: string; where: 'contested' | 'held' }>();
  let retriesAfterKill = 0;
  let switchedToHeld = 0;
  const buyer = async (session: PaidSession, index: number) => {
    const target = targets[index];
    if (!target) throw new Error(`no contested square for buyer ${index} (${targets.length} squares)`);
    let place: { x: number; y: number } = target;
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = ledger.record('claim', await claimPlot(stack, { ...session, ...place }));
      if (response.status === 200 || response.status === 201) {
        outcome.set(session.sessionId, { plotId: response.body.plot.id, where: place === target ? 'contested' : 'held' });
        return;
      }
      if (response.status === 409 && response.body?.error?.code === 'TILE_UNAVAILABLE' && place === target) {
        // Lost the race: the paid entitlement is intact, claim the square the checkout held.
        switchedToHeld += 1;
        place = { x: session.x, y: session.y };
        continue;
      }
      if (response.status === 0 || response.status >= 500) {
        retriesAfterKill += 1;
        await sleep(200);
        continue;
      }
      throw new Error(`claim refused: ${response.status} ${JSON.stringify(response.body)}`);
    }
    throw new Error(`claim for ${session.sessionId} never succeeded`);
  };

  const victim = replica(stack, 'plots', 1);
  const kill = (async () => {
    await eventually(async () => outcome.size >= BUYERS / 4, 60_000, 10);
    await victim.stop('SIGKILL');
    ledger.fault(`plots replica ${victim.url} killed (SIGKILL) with ${outcome.size}/${BUYERS} buyers done`);
  })();
  // Visitors read all along (plot pages, position checks, the list): a GET is safe to retry, so the gateway
  // must hide the dead replica from them completely.
  let buyersDone = false;
  const readFailures: string[] = [];
  const reader = async (n: number) => {
    for (let i = 0; !buyersDone; i++) {
      const plots = [...outcome.values()];
      // Both indexes are taken modulo a non-empty list's length.
      const spot = targets[(i * 7 + n) % targets.length]!;
      const path =
        i % 3 === 0 && plots.length
          ? `/api/plots/${plots[i % plots.length]!.plotId}`
          : i % 3 === 1
            ? `/api/position-available?x=${spot.x}&y=${spot.y}&tier=featured`
            : '/api/plots';
      const response = ledger.record('read (GET)', await api(stack, 'GET', path));
      if (response.status !== 200)
        readFailures.push(`${path}: ${response.status} ${response.networkError ?? JSON.stringify(response.body)}`);
    }
  };
  const readers = [reader(0), reader(1), reader(2)];
  // Contested squares first in every group, eight buyers at a time, paced so the kill lands mid-run.
  await Promise.all([
    pool(sessions, 8, async (session, i) => {
      await sleep(40);
      return buyer(session, i);
    }),
    kill,
  ]);
  buyersDone = true;
  await Promise.all(readers);
  ledger.missing(
    readFailures.length,
    `GET requests that failed although another replica could answer: ${readFailures.slice(0, 3).join('; ')}`,
  );
  expect(readFailures).toEqual([]);
  ledger.note(
    `${retriesAfterKill} claim attempts failed with 5xx/network and were retried; ${switchedToHeld} buyers lost a contested square (409) and claimed their held square`,
  );

  // 1. No overlap, by the SQL self-join on half-open ranges (plots and holds).
  const footprints = await overlappingFootprints(stack.db);
  ledger.checked(footprints.rows);
  ledger.missing(footprints.overlaps, 'overlapping footprints');
  expect(footprints.overlaps).toBe(0);
  expect(await overlappingPlots(stack.db)).toBe(0);

  // 2. Every 2xx claim exists; no session bought two plots.
  const plots = await stack.db.query<{ id: string; stripe_session_id: string; x: number; y: number }>(
    `SELECT id::text, stripe_session_id, x, y FROM plots.plots`,
  );
  ledger.checked(plots.length);
  const plotOf = new Map(plots.map((p) => [p.stripe_session_id, p]));
  expect(plotOf.size).toBe(plots.length);
  const missing = [...outcome].filter(([sessionId, o]) => plotOf.get(sessionId)?.id !== o.plotId).length;
  ledger.missing(missing, 'claims answered 2xx without their plot');
  expect(missing).toBe(0);
  const winners = [...outcome.values()].filter((o) => o.where === 'contested').length;
  expect(winners).toBeLessThanOrEqual(GROUPS);

  // 3. Every paid buyer has a plot or an unused entitlement (none is left with neither).
  await eventually(async () => (await stack.db.count('plots.entitlements')) === BUYERS, 30_000);
  const paid = await stack.db.query<{ session: string; plot: string | null; entitlement: string | null }>(`
    SELECT p.stripe_session_id AS session, pl.id::text AS plot, e.session_id AS entitlement
      FROM payments.payments p
      LEFT JOIN plots.plots pl ON pl.stripe_session_id = p.stripe_session_id
      LEFT JOIN plots.entitlements e ON e.session_id = p.stripe_session_id
     WHERE p.status = 'paid'`);
  ledger.checked(paid.length);
  expect(paid).toHaveLength(BUYERS);
  const stranded = paid.filter((p) => !p.plot && !p.entitlement).length;
  ledger.missing(stranded, 'paid buyers with neither a plot nor an entitlement');
  expect(stranded).toBe(0);
  const unused = paid.filter((p) => !p.plot && p.entitlement).length;
  ledger.note(`${paid.length - unused} paid buyers hold a plot, ${unused} an unused entitlement`);
  expect(outcome.size).toBe(BUYERS);

  // 4. Payments recorded each session's use once, for the plot that was made.
  await expectSessionsUsedByTheirPlots(stack.db, ledger, new Map(plots.map((p) => [p.stripe_session_id, p.id])), BUYERS, 30_000);
  expect(replica(stack, 'plots', 0).child.exitCode).toBeNull();
  ledger.print();
  expect(ledger.lost).toBe(0);
});
