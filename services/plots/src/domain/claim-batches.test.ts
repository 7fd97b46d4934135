import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isAppError } from '@pixel-atlas/service-kit/errors';
import { migrate } from '@pixel-atlas/service-kit/migrate';
import { createTestDatabase, type TestDatabase } from '@pixel-atlas/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA } from '../db.ts';
import { ClaimBatches, ClaimWriteRefused, type ClaimWrite } from './claim-batches.ts';
import { isOverlapViolation, isUniqueViolation } from './footprints.ts';

let db: TestDatabase;
let pool: pg.Pool;
let batches: ClaimBatches;
/** Statements sent to PostgreSQL by the batches, by name. */
const sent: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate({ connectionString: db.url, schema: SCHEMA, migrationsDir: path.resolve(import.meta.dirname, '../../prisma/migrations') });
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const counting = {
    query: ((config: { name?: string }, values?: unknown[]) => {
      sent.push(config.name ?? '?');
      return pool.query(config as pg.QueryConfig, values);
    }) as pg.Pool['query'],
  };
  batches = new ClaimBatches(counting);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

let next = 0;
function claimWrite(overrides: Partial<ClaimWrite> = {}): ClaimWrite {
  next += 1;
  const plotId = randomUUID();
  return {
    plotId,
    zone: 'nexus',
    tier: 'basic',
    x: next % 90,
    y: Math.floor(next / 90),
    size: 1,
    displayName: `Buyer ${next}`,
    message: 'hello',
    link: null,
    visible: true,
    regionName: null,
    sessionId: `cs_batch_${next}_${randomUUID()}`,
    notificationEmail: null,
    createdAt: new Date(),
    avatar: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    manageTokenHash: randomUUID(),
    eventId: randomUUID(),
    eventType: 'plots.plot.claimed',
    eventPayload: JSON.stringify({ plotId }),
    requestId: null,
    ...overrides,
  };
}

const stored = async (writes: ClaimWrite[]) =>
  (await db.query<{ id: string }>(`SELECT id::text FROM plots.plots WHERE id = ANY($1::uuid[])`, [writes.map((w) => w.plotId)])).map(
    (row) => row.id,
  );

describe('claim batches', () => {
  it('writes the claims that arrive while one is in the database together, in one call', async () => {
    sent.length = 0;
    const writes = Array.from({ length: 6 }, () => claimWrite());
    await Promise.all(writes.map((write) => batches.write(write)));
    expect((await stored(writes)).sort()).toEqual(writes.map((w) => w.plotId).sort());
    // The first found the batcher idle and went alone; the five behind it went as one call.
    expect(sent).toEqual(['plots.write_claim', 'plots.write_claims']);
    const events = await db.query<{ n: string }>(`SELECT count(*) AS n FROM plots.outbox_events WHERE id = ANY($1::uuid[])`, [
      writes.map((w) => w.eventId),
    ]);
    expect(events).toEqual([{ n: '6' }]);
  });

  it('refuses an overlapping claim alone: the exclusion constraint decides inside the batch, its neighbours are kept', async () => {
    const first = claimWrite();
    const rival = claimWrite({ x: first.x, y: first.y });
    const other = claimWrite();
    const results = await Promise.allSettled([
      batches.write(claimWrite()),
      batches.write(first),
      batches.write(rival),
      batches.write(other),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const refusal = (results[2] as PromiseRejectedResult).reason;
    expect(refusal).toBeInstanceOf(ClaimWriteRefused);
    expect(isOverlapViolation(refusal)).toBe(true);
    expect(await stored([first, rival, other])).toHaveLength(2);
  });

  it('names the unique index a claim broke (a second plot for one session)', async () => {
    const first = claimWrite();
    const again = claimWrite({ sessionId: first.sessionId });
    const results = await Promise.allSettled([batches.write(claimWrite()), batches.write(first), batches.write(again)]);
    const refusal = (results[2] as PromiseRejectedResult).reason;
    expect(isUniqueViolation(refusal)).toBe(true);
    expect(isUniqueViolation(refusal, 'plots_pkey')).toBe(false);
  });

  it('a claim that fails the whole call for another reason fails alone: the others are written one by one', async () => {
    sent.length = 0;
    const good = [claimWrite(), claimWrite(), claimWrite()];
    const broken = claimWrite({ eventPayload: 'not json' });
    const results = await Promise.allSettled([
      batches.write(good[0]!),
      batches.write(broken),
      batches.write(good[1]!),
      batches.write(good[2]!),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' });
    expect(isAppError((results[1] as PromiseRejectedResult).reason)).toBe(false);
    expect((await stored([...good, broken])).sort()).toEqual(good.map((w) => w.plotId).sort());
    expect(sent).toEqual(['plots.write_claim', 'plots.write_claims', 'plots.write_claim', 'plots.write_claim', 'plots.write_claim']);
  });

  it("reads many claims' state in one statement, counting each paid session's try once", async () => {
    await db.query(`INSERT INTO plots.entitlements (session_id, tier) VALUES ('cs_state_a', 'basic'), ('cs_state_b', 'featured')`);
    sent.length = 0;
    const states = await Promise.all([
      batches.readState({ x: 80, y: 80, tier: 'basic', sessionId: 'cs_state_unknown' }),
      batches.readState({ x: 80, y: 80, tier: 'basic', sessionId: 'cs_state_a' }),
      // Claimed as basic though paid as featured: not counted.
      batches.readState({ x: 81, y: 81, tier: 'basic', sessionId: 'cs_state_b' }),
      batches.readState({ x: 80, y: 80, tier: 'basic', sessionId: 'cs_state_a' }),
    ]);
    expect(sent).toEqual(['plots.read_claim_states', 'plots.read_claim_states']);
    expect(states).toEqual([
      { tier: null, used: false, taken: false, attempts: null, buyerEmail: null },
      { tier: 'basic', used: false, taken: false, attempts: 1, buyerEmail: null },
      { tier: 'featured', used: false, taken: false, attempts: null, buyerEmail: null },
      { tier: 'basic', used: false, taken: false, attempts: 1, buyerEmail: null },
    ]);
  });
});
