import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import { eventually, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';
import { expect } from 'vitest';
import type { ApiResponse } from './traffic.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What a fault test did and found: printed as one block, and appended to .data/faults-report.jsonl. */
export class FaultLedger {
  readonly faults: string[] = [];
  private readonly requests = new Map<string, { sent: number; ok: number; statuses: Map<number, number> }>();
  rowsChecked = 0;
  /** (consumer, event) pairs whose effect was verified. */
  eventsChecked = 0;
  lost = 0;
  /** Effects found more than once (an event applied twice, a decision recorded twice). Must stay 0. */
  appliedTwice = 0;
  /** Seconds from the end of the fault until the ledger was complete (long faults). */
  recoverySeconds: number | null = null;
  readonly notes: string[] = [];
  private readonly started = Date.now();

  constructor(readonly test: string) {}

  fault(description: string): void {
    this.faults.push(description);
  }

  /** Counts a response under `kind` (claim, flag, read, ...): sent, 2xx, and statuses seen. */
  record<T extends ApiResponse>(kind: string, response: T): T {
    const entry = this.requests.get(kind) ?? { sent: 0, ok: 0, statuses: new Map() };
    entry.sent += 1;
    if (response.status >= 200 && response.status < 300) entry.ok += 1;
    entry.statuses.set(response.status, (entry.statuses.get(response.status) ?? 0) + 1);
    this.requests.set(kind, entry);
    return response;
  }

  /** Rows an SQL check looked at. */
  checked(rows: number): void {
    this.rowsChecked += rows;
  }

  /** Something that should exist and does not (must stay 0). */
  missing(count: number, what: string): void {
    if (count > 0) {
      this.lost += count;
      this.notes.push(`LOST ${count}: ${what}`);
    }
  }

  /** Something found more than once that must exist once (must stay 0). */
  twice(count: number, what: string): void {
    if (count > 0) {
      this.appliedTwice += count;
      this.notes.push(`APPLIED TWICE ${count}: ${what}`);
    }
  }

  events(count: number): void {
    this.eventsChecked += count;
  }

  recovered(seconds: number): void {
    this.recoverySeconds = seconds;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  get sent(): number {
    return [...this.requests.values()].reduce((n, e) => n + e.sent, 0);
  }

  get succeeded(): number {
    return [...this.requests.values()].reduce((n, e) => n + e.ok, 0);
  }

  /** A test that never got to its report says how far it went (its traffic's own lines) before it rethrows. */
  printStoppedEarly(error: unknown, trafficLines: Iterable<string>): void {
    this.note(`stopped early: ${(error as Error).message}`);
    for (const line of trafficLines) this.note(line);
    this.print();
  }

  print(): void {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const lines = [
      `── fault report: ${this.test} (${seconds} s)`,
      `   faults injected: ${this.faults.length}${this.faults.map((f) => `\n     - ${f}`).join('')}`,
      `   requests sent: ${this.sent}, succeeded (2xx): ${this.succeeded}`,
      ...[...this.requests].map(
        ([kind, e]) =>
          `     ${kind}: ${e.sent} sent, ${e.ok} 2xx (${[...e.statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s === 0 ? 'network error' : s}×${n}`)
            .join(', ')})`,
      ),
      `   rows checked: ${this.rowsChecked}${this.eventsChecked ? `, events checked: ${this.eventsChecked}` : ''}`,
      `   lost: ${this.lost}, applied twice: ${this.appliedTwice}`,
      ...(this.recoverySeconds === null ? [] : [`   recovery: ledger complete ${this.recoverySeconds.toFixed(1)} s after the fault ended`]),
      ...this.notes.map((n) => `   note: ${n}`),
    ];
    console.log(lines.join('\n'));
    try {
      mkdirSync(path.join(repoRoot, '.data'), { recursive: true });
      appendFileSync(
        path.join(repoRoot, '.data', 'faults-report.jsonl'),
        `${JSON.stringify({
          test: this.test,
          at: new Date().toISOString(),
          seconds: Number(seconds),
          faults: this.faults,
          sent: this.sent,
          succeeded: this.succeeded,
          byKind: Object.fromEntries(
            [...this.requests].map(([k, e]) => [k, { sent: e.sent, ok: e.ok, statuses: Object.fromEntries(e.statuses) }]),
          ),
          rowsChecked: this.rowsChecked,
          eventsChecked: this.eventsChecked,
          lost: this.lost,
          appliedTwice: this.appliedTwice,
          recoverySeconds: this.recoverySeconds,
          notes: this.notes,
        })}\n`,
      );
    } catch {
      // the printed block is the report; the file is a convenience
    }
  }
}

/**
 * No 2xx without its write: every claim answered 2xx (session id → plot id) has its plot row and every contact
 * message answered 201 its row; what is not there is counted in the ledger. Returns the plot rows' ids by session.
 */
export async function expectAnsweredWritesStored(
  db: TestDatabase,
  ledger: FaultLedger,
  answered: { claims: Map<string, string>; contactIds: string[] },
): Promise<{ plotRows: number; plotBySession: Map<string, string> }> {
  const plots = await db.query<{ id: string; stripe_session_id: string }>(`SELECT id::text, stripe_session_id FROM plots.plots`);
  ledger.checked(plots.length);
  const plotBySession = new Map(plots.map((p) => [p.stripe_session_id, p.id]));
  const missingClaims = [...answered.claims].filter(([sessionId, plotId]) => plotBySession.get(sessionId) !== plotId).length;
  ledger.missing(missingClaims, 'claims answered 2xx without their plot row');
  expect(missingClaims).toBe(0);
  const contacts = new Set((await db.query<{ id: string }>(`SELECT id::text FROM contact.contact_submissions`)).map((c) => c.id));
  ledger.checked(contacts.size);
  const missingContacts = answered.contactIds.filter((id) => !contacts.has(id)).length;
  ledger.missing(missingContacts, 'contact messages answered 201 without their row');
  expect(missingContacts).toBe(0);
  return { plotRows: plots.length, plotBySession };
}

/** Payments recorded each claimed session's use once, for the plot that was made: waits for `claims` rows, then compares. */
export async function expectSessionsUsedByTheirPlots(
  db: TestDatabase,
  ledger: FaultLedger,
  plotBySession: Map<string, string>,
  claims: number,
  timeoutMs = 60_000,
): Promise<void> {
  await eventually(async () => (await db.count('payments.used_sessions')) === claims, timeoutMs, 250);
  const used = await db.query<{ session_id: string; plot_id: string }>(`SELECT session_id, plot_id::text FROM payments.used_sessions`);
  ledger.checked(used.length);
  const wrongUse = used.filter((u) => plotBySession.get(u.session_id) !== u.plot_id).length;
  ledger.missing(wrongUse, 'used sessions not matching their plot');
  expect(wrongUse).toBe(0);
}

/**
 * Every flag answered 2xx (plot id → flags) is one plots.plot.flagged event, moderation handled them all, and each
 * flagged plot's pending review item counts every one. Returns the pending review items.
 */
export async function expectFlagsQueued(
  db: TestDatabase,
  ledger: FaultLedger,
  okFlags: Map<string, number>,
): Promise<Array<{ plot_id: string; flag_count: number }>> {
  const flaggedEvents = (await outboxRows(db, 'plots', 'plots.plot.flagged')).length;
  expect(flaggedEvents).toBe([...okFlags.values()].reduce((a, b) => a + b, 0));
  await eventually(
    async () => (await db.count(`moderation.inbox_events WHERE subject = 'plots.plot.flagged'`)) === flaggedEvents,
    60_000,
    250,
  );
  const pending = await db.query<{ plot_id: string; flag_count: number }>(
    `SELECT plot_id::text, flag_count FROM moderation.review_items WHERE status = 'pending'`,
  );
  ledger.checked(pending.length);
  const queued = new Map(pending.map((q) => [q.plot_id, q.flag_count]));
  const wrongCounts = [...okFlags].filter(([plotId, n]) => queued.get(plotId) !== n).length;
  ledger.missing(wrongCounts, 'flagged plots whose review item does not count every flag');
  expect(wrongCounts).toBe(0);
  return pending;
}

/** Outbox rows not yet acknowledged by JetStream, per schema that has an outbox. */
export async function unpublished(db: TestDatabase): Promise<Record<string, number>> {
  const tables = await db.query<{ schema: string }>(
    `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_events'`,
  );
  const out: Record<string, number> = {};
  for (const { schema } of tables) {
    out[schema] = await db.count(`"${schema}".outbox_events WHERE published_at IS NULL`);
  }
  return out;
}

/** Waits until every outbox in the database is drained. */
export async function outboxesDrained(db: TestDatabase, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => Object.values(await unpublished(db)).every((n) => n === 0), timeoutMs, 250);
}

export interface OutboxRow {
  id: string;
  subject: string;
  payload: EventEnvelope<any>;
  request_id: string | null;
  published_at: Date | null;
}

export async function outboxRows(db: TestDatabase, schema: string, subject?: string): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT id::text, subject, payload, request_id, published_at FROM "${schema}".outbox_events ${subject ? 'WHERE subject = $1' : ''} ORDER BY created_at, id`,
    subject ? [subject] : [],
  );
}

/** Overlapping footprints (plots and holds): the SQL self-join on half-open ranges. Must be 0. */
export async function overlappingFootprints(db: TestDatabase): Promise<{ overlaps: number; rows: number }> {
  const [row] = await db.query<{ overlaps: number; rows: number }>(`
    SELECT (SELECT count(*)::int FROM plots.footprints a JOIN plots.footprints b
              ON a.id < b.id
             AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size)
             AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)) AS overlaps,
           (SELECT count(*)::int FROM plots.footprints) AS rows`);
  if (!row) throw new Error('the footprint overlap query returned no row');
  return row;
}

/** Overlapping plots (plots table only). Must be 0. */
export async function overlappingPlots(db: TestDatabase): Promise<number> {
  return db.count(
    `plots.plots a JOIN plots.plots b
       ON a.id < b.id
      AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size)
      AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)`,
  );
}

/** Parses a Prometheus text exposition into {name{labels} → value}. */
export async function metrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** Sum of a metric over every label set matching all of `labels`. */
export function metricSum(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [key, value] of all) {
    if (!(key === name || key.startsWith(`${name}{`))) continue;
    if (Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

/**
 * Every durable consumer the services declared on the stream, as (logical consumer, event type): the kit
 * names each JetStream durable `<consumer>-<type with dots as dashes>` and filters it on `<prefix><type>`.
 * Read from the broker, so a consumer added to a service is checked without touching the suite.
 */
export async function declaredConsumers(access: TestStream): Promise<Array<{ consumer: string; type: string }>> {
  const nc = await connect(access.connectOptions());
  try {
    const jsm = await jetstreamManager(nc);
    const out: Array<{ consumer: string; type: string }> = [];
    for await (const info of jsm.consumers.list(access.stream)) {
      const filter = info.config.filter_subject ?? '';
      if (!filter.startsWith(access.subjectPrefix)) continue;
      const type = filter.slice(access.subjectPrefix.length);
      const suffix = `-${type.replaceAll('.', '-')}`;
      if (!info.name.endsWith(suffix)) continue;
      out.push({ consumer: info.name.slice(0, -suffix.length), type });
    }
    return out.sort((a, b) => `${a.consumer} ${a.type}`.localeCompare(`${b.consumer} ${b.type}`));
  } finally {
    await nc.close();
  }
}

export interface ConsumerAudit {
  /** (consumer, event) pairs that should have an inbox row. */
  pairs: number;
  /** Events written to an outbox that a consumer of their type has not applied. */
  missing: Array<{ consumer: string; type: string; eventId: string }>;
  /** Per consumer and type: events expected, applied. */
  byConsumer: Array<{ consumer: string; type: string; expected: number; applied: number }>;
}

/**
 * Every event any service wrote to its outbox has, in every consumer of its type, its inbox row (written in
 * the same transaction as the effect, so the row is the proof the effect happened; its key makes a second
 * application impossible, which the callers' effect checks confirm).
 */
export async function auditConsumers(db: TestDatabase, access: TestStream): Promise<ConsumerAudit> {
  const consumers = await declaredConsumers(access);
  const outboxSchemas = (
    await db.query<{ schema: string }>(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox_events'`)
  ).map((r) => r.schema);
  const inboxSchemas = new Set(
    (
      await db.query<{ schema: string }>(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'inbox_events'`)
    ).map((r) => r.schema),
  );
  const written = new Map<string, string[]>(); // type → event ids
  for (const schema of outboxSchemas) {
    for (const row of await db.query<{ id: string; subject: string }>(`SELECT id::text, subject FROM "${schema}".outbox_events`)) {
      written.set(row.subject, [...(written.get(row.subject) ?? []), row.id]);
    }
  }
  const audit: ConsumerAudit = { pairs: 0, missing: [], byConsumer: [] };
  for (const { consumer, type } of consumers) {
    // The kit keeps a consumer's inbox in the schema of the same name (each service consumes as itself).
    if (!inboxSchemas.has(consumer)) throw new Error(`consumer ${consumer} has no ${consumer}.inbox_events table`);
    const expected = written.get(type) ?? [];
    const applied = new Set(
      (
        await db.query<{ id: string }>(`SELECT event_id::text AS id FROM "${consumer}".inbox_events WHERE consumer = $1 AND subject = $2`, [
          consumer,
          type,
        ])
      ).map((r) => r.id),
    );
    audit.pairs += expected.length;
    audit.byConsumer.push({ consumer, type, expected: expected.length, applied: expected.filter((id) => applied.has(id)).length });
    for (const id of expected) if (!applied.has(id)) audit.missing.push({ consumer, type, eventId: id });
  }
  return audit;
}

/** Every row of every service's dead_letter_events (must be none: nothing here fails permanently). */
export async function deadLetterRows(
  db: TestDatabase,
): Promise<Array<{ schema: string; consumer: string; subject: string; error: string }>> {
  const schemas = (
    await db.query<{ schema: string }>(
      `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'dead_letter_events'`,
    )
  ).map((r) => r.schema);
  const out: Array<{ schema: string; consumer: string; subject: string; error: string }> = [];
  for (const schema of schemas) {
    for (const row of await db.query<{ consumer: string; subject: string; error: string }>(
      `SELECT consumer, subject, error FROM "${schema}".dead_letter_events`,
    )) {
      out.push({ schema, ...row });
    }
  }
  return out;
}
