import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import { footprintsOverlap, type Footprint } from '@pixel-atlas/contracts/grid';
import { assert, describe, expect, it } from 'vitest';
import { buyAndPay, claim, claimBody, isLandFootprint, type World } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';

// 200 claims arrive at once in one process: let them all wait for a decode slot (the cap itself is tested in
// claim-decode-bounds.test.ts); this file is about the exclusion constraint.
const world = worldPerFile({ plotsEnv: { AVATAR_DECODE_QUEUE: '400' } });

/** Greedy allocator of free land squares, so every checkout's hold has its own place outside the contested areas. */
function allocator(world: World, reserved: Footprint[]) {
  const used: Footprint[] = [...reserved];
  return (size: number): { x: number; y: number } => {
    for (let y = 0; y + size <= 90; y++) {
      for (let x = 0; x + size <= 90; x++) {
        const f = { x, y, size };
        if (isLandFootprint(world, x, y, size) && !used.some((u) => footprintsOverlap(u, f))) {
          used.push(f);
          return { x, y };
        }
      }
    }
    throw new Error(`no free ${size}×${size} land left`);
  };
}

/** A fully-land square area of the given side, away from the first rows the allocator fills. */
function landArea(world: World, side: number, avoid: Footprint[] = []): Footprint {
  for (let y = 89 - side; y >= 0; y--) {
    for (let x = 89 - side; x >= 0; x--) {
      const area = { x, y, size: side };
      if (isLandFootprint(world, x, y, side) && !avoid.some((a) => footprintsOverlap(a, area))) return area;
    }
  }
  throw new Error(`no ${side}×${side} land area`);
}

/** Checkouts are set-up here, not what is tested: a few at a time keeps the 3 s hold request in budget on a busy machine. */
async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Overlapping pairs among the stored plots, by a self-join on the half-open ranges (and the same over footprints). */
async function overlappingPairs(): Promise<number> {
  const [plots] = await world.db.query<{ n: string }>(`
    SELECT count(*) AS n FROM plots.plots a JOIN plots.plots b ON a.id < b.id
     AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size)
     AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)`);
  const [footprints] = await world.db.query<{ n: string }>(`
    SELECT count(*) AS n FROM plots.footprints a JOIN plots.footprints b ON a.id < b.id
     AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size)
     AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)`);
  assert(plots && footprints, 'a count query answers one row');
  return Number(plots.n) + Number(footprints.n);
}

// 200 paid sessions and 200 claims each: minutes, not seconds, when the whole suite shares two cores.
describe('200 concurrent claims of overlapping footprints from different paid sessions', { timeout: 120_000 }, () => {
  it('ten 1×1 tiles, twenty buyers each: exactly one plot per tile, everyone else 409 and still entitled', async () => {
    const area = landArea(world, 4);
    const targets = Array.from({ length: 10 }, (_, i) => ({ x: area.x + (i % 4), y: area.y + Math.floor(i / 4) }));
    const allocate = allocator(world, [area]);
    const sessions = await inBatches(
      Array.from({ length: 200 }, (_, i) => i),
      8,
      async () => buyAndPay(world, { tier: 'basic', ...allocate(1) }),
    );
    expect(new Set(sessions).size).toBe(200);

    const bodies = await Promise.all(
      sessions.map((sessionId, i) => {
        const target = targets[i % targets.length]!;
        return claimBody(sessionId, 'basic', target.x, target.y, { display_name: `Buyer ${i}` });
      }),
    );
    const results = await Promise.all(bodies.map((body) => claim(world, body)));

    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(190);
    for (const r of results.filter((r) => r.statusCode === 409)) expect(r.json().error.code).toBe('TILE_UNAVAILABLE');
    const winners = results.filter((r) => r.statusCode === 201).map((r) => r.json().plot);
    expect(new Set(winners.map((p) => `${p.x},${p.y}`))).toEqual(new Set(targets.map((t) => `${t.x},${t.y}`)));
    expect(await overlappingPairs()).toBe(0);

    // Losers lost nothing: still paid and unused, so they can claim another spot.
    const loser = sessions[statuses.findIndex((s) => s === 409)];
    assert(loser, 'someone lost');
    const elsewhere = allocate(1);
    const retry = await claim(world, await claimBody(loser, 'basic', elsewhere.x, elsewhere.y));
    expect(retry.statusCode).toBe(201);
  });

  it('mixed tiers (1×1 to 4×4) all over one 10×10 area: no overlaps, and every refused claim really overlapped a winner', async () => {
    const taken = await world.db.query<Footprint>(`SELECT x, y, size FROM plots.footprints`);
    const area = landArea(world, 10, taken);
    const allocate = allocator(world, [area, ...taken]);
    const tiers: Tier[] = ['basic', 'featured', 'prime', 'premium'];
    // Deterministic pseudo-random positions (no flaky seeds): every footprint inside the area.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const buyers = Array.from({ length: 200 }, (_, i) => {
      const tier = tiers[i % tiers.length]!;
      const size = TIER_SIZE[tier];
      return {
        tier,
        target: { x: area.x + Math.floor(random() * (10 - size + 1)), y: area.y + Math.floor(random() * (10 - size + 1)), size },
      };
    });
    const paid = await inBatches(buyers, 8, async (b) => ({
      ...b,
      sessionId: await buyAndPay(world, { tier: b.tier, ...allocate(TIER_SIZE[b.tier]) }),
    }));
    const bodies = await Promise.all(
      paid.map((b, i) => claimBody(b.sessionId, b.tier, b.target.x, b.target.y, { display_name: `Mixed ${i}` })),
    );
    const results = await Promise.all(bodies.map((body) => claim(world, body)));

    const statuses = results.map((r) => r.statusCode);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(results.filter((r) => r.statusCode !== 201 && r.statusCode !== 409).map((r) => r.body)),
    ).toBe(true);
    const winners = buyers.filter((_, i) => statuses[i] === 201).map((b) => b.target);
    const losers = buyers.filter((_, i) => statuses[i] === 409).map((b) => b.target);
    expect(winners.length).toBeGreaterThan(1);
    for (const [i, a] of winners.entries()) for (const b of winners.slice(i + 1)) expect(footprintsOverlap(a, b)).toBe(false);
    for (const loser of losers) expect(winners.some((w) => footprintsOverlap(w, loser))).toBe(true);
    expect(await overlappingPairs()).toBe(0);
    const [inArea] = await world.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM plots.plots WHERE x >= $1 AND y >= $2 AND x + size <= $1 + 10 AND y + size <= $2 + 10`,
      [area.x, area.y],
    );
    expect(Number(inArea?.n)).toBe(winners.length);
  });
});
