/**
 * What one claim costs: SQL statements (by verb and table) and NATS messages (requests and publishes, by subject)
 * made in this process — map, plots, payments and moderation — per claim, including the work the claim's events
 * cause downstream (outbox relay, consumers, caches). Claims run one at a time on sessions bought beforehand.
 *
 *   node --import tsx services/plots/bench/claim-costs.ts          (BENCH_CLAIMS=100)
 */
import { createRequire } from 'node:module';
import { buyAndPay, claim, claimBody, landSpots, startWorld } from '@pixel-atlas/test-stack/world';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 100);
const require = createRequire(import.meta.url);

const sql = new Map<string, number>();
const nats = new Map<string, number>();
const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

// Count every statement the pg driver sends (Prisma's adapter and the kit's raw pools both go through pg.Client).
const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const config = args[0] as string | { text?: string } | undefined;
  const text = (typeof config === 'string' ? config : (config?.text ?? '')).replace(/\s+/g, ' ').trim();
  const verb = text.split(' ')[0]?.toUpperCase() ?? '?';
  const table =
    /^(?:UPDATE|INSERT INTO|DELETE FROM)\s+("?\w+"?\."?\w+"?)/i.exec(text)?.[1] ?? /\bFROM\s+("?\w+"?\."?\w+"?)/i.exec(text)?.[1] ?? '';
  bump(sql, `${verb} ${table.replaceAll('"', '')}`.trim());
  return originalQuery.apply(this, args);
};

// Count NATS requests and publishes (acks and replies left out), by subject without the test prefix and ids.
const { NatsConnectionImpl } = (await import(require.resolve('@nats-io/nats-core/internal'))) as {
  NatsConnectionImpl: { prototype: Record<'publish' | 'request', (subject: string, ...rest: unknown[]) => unknown> };
};
const subjectKey = (subject: string) =>
  subject.replace(/^.*?\.(?=(?:plots|map|moderation|payments|contact|query|\$JS)\.)/, '').replace(/\.[A-Za-z0-9_-]{16,}(\..*)?$/, '.<id>');
for (const method of ['publish', 'request'] as const) {
  const original = NatsConnectionImpl.prototype[method];
  NatsConnectionImpl.prototype[method] = function (this: unknown, subject: string, ...rest: unknown[]) {
    if (!subject.startsWith('$JS.ACK') && !subject.startsWith('_INBOX')) bump(nats, `${method} ${subjectKey(subject)}`);
    return original.call(this, subject, ...rest);
  };
}

const world = await startWorld({ plotsEnv: { LOG_LEVEL: 'warn' }, paymentsEnv: { LOG_LEVEL: 'warn' } });
try {
  const spots = landSpots(world, 1, CLAIMS);
  const sessions: string[] = [];
  for (const spot of spots) sessions.push(await buyAndPay(world, { tier: 'basic', ...spot }));
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // the purchases' events settle
  sql.clear();
  nats.clear();
  for (const [i, spot] of spots.entries()) {
    const response = await claim(world, await claimBody(sessions[i]!, 'basic', spot.x, spot.y, { display_name: `Buyer ${i}` }));
    if (response.statusCode !== 201) throw new Error(`claim ${response.statusCode}: ${response.body}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 3_000)); // the claims' events are relayed and consumed
  const report = (title: string, counts: Map<string, number>) => {
    const rows = [...counts].sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((sum, [, n]) => sum + n, 0);
    console.log(`\n${title}: ${(total / CLAIMS).toFixed(2)} per claim`);
    for (const [key, n] of rows) console.log(`  ${(n / CLAIMS).toFixed(2).padStart(6)}  ${key}`);
  };
  report('SQL statements', sql);
  report('NATS messages sent', nats);
} finally {
  await world.close();
}
