import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { afterAll, expect } from 'vitest';
import { FaultLedger, auditConsumers, deadLetterRows, unpublished } from './checks.ts';
import { announceLongBoot } from './serial.ts';
import { faultStackForFile, type FaultRig, type FaultStack } from './stack.ts';
import { Visitor, api, buyAndPay, claimPlot, flagPlot, pool, sleep, spots, type ApiResponse, type PaidSession } from './traffic.ts';

/** How long the long faults last: longer than any back-off in the kit (inbox 30 s, relay 5 s, reconnects). */
export const LONG_OUTAGE_MS = Number(process.env.FAULTS_LONG_OUTAGE_MS ?? 300_000);
/** Traffic before the fault starts, so some of everything is already done when it hits. */
export const LEAD_MS = 20_000;
/** After the fault: the time the system gets to make the ledger complete. */
export const RECOVERY_LIMIT_MS = 5 * 60_000;
/** A long file's one test: preparation (buying under load), the outage, recovery and the SQL checks. */
export const LONG_TEST_TIMEOUT_MS = LONG_OUTAGE_MS + RECOVERY_LIMIT_MS + 6 * 60_000;
export const LONG_HOOK_TIMEOUT_MS = 6 * 60_000;

export const ADMIN = { username: 'faults-admin', password: 'faults-admin-password-0123' };
/** A word on the content screen's list: a claim named with it is created hidden and queued for review. */
export const SCREENED_NAME = (i: number) => `Damn Fine Plot ${i}`;

/**
 * A long file's own PostgreSQL cluster and nats-server (so the three outages run at the same time without touching
 * one another, or the machine's shared PostgreSQL) and its stack. `booted` says the file is up and prepared: the
 * short files wait for it (announced at import, before any short file looks).
 */
export function longFaultFile(): { rig: FaultRig; booted: () => void } {
  const booted = announceLongBoot();
  const rig = faultStackForFile({
    ownPostgres: true,
    hookTimeoutMs: LONG_HOOK_TIMEOUT_MS,
    // No contact traffic here: one process fewer to boot and run.
    replicas: { contact: 0 },
    serviceEnv: {
      gateway: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
      // A buyer here retries every few seconds for minutes; plots counts every try that reaches it (the bound
      // protects image decoding), and 20 would run out during a NATS outage. Not what these files measure.
      plots: { CLAIM_MAX_ATTEMPTS_PER_SESSION: '100000' },
    },
  });
  // Registered after the stack's: runs before it stops.
  afterAll(booted);
  return { rig, booted };
}

/** What every long file ends with: there was something to screen and decide, and the ledger came back complete. */
export function expectCompleteLedger(traffic: LongTraffic, ledger: FaultLedger): void {
  expect(traffic.screenedPlots.length).toBeGreaterThan(0);
  expect(traffic.decisions.size).toBeGreaterThan(0);
  expect(ledger.lost).toBe(0);
  expect(ledger.appliedTwice).toBe(0);
  expect(ledger.recoverySeconds).not.toBeNull();
}

/** One dependency taken down for LONG_OUTAGE_MS and brought back, in a long file's one test. */
export interface LongOutage {
  /** The ledger's title. */
  title: string;
  claims: number;
  /** Takes the dependency down; says how, for the ledger (`nats-server killed (SIGKILL)`). */
  stop(): Promise<string>;
  /** Brings it back after LONG_OUTAGE_MS; may note what it finds in the ledger first. */
  resume(ledger: FaultLedger): Promise<void>;
}

/**
 * A long file's test: traffic for LEAD_MS, the outage under the same claims, flags and admin decisions, the
 * dependency back, then the ledger must become complete (every 2xx stored, every event applied once by every
 * consumer, nothing dead-lettered) with no process restarted or exited: the system recovers on its own.
 */
export async function runLongOutage({ rig, booted }: { rig: FaultRig; booted: () => void }, outage: LongOutage): Promise<void> {
  const { stack } = rig;
  const ledger = new FaultLedger(outage.title);
  const traffic = new LongTraffic(stack, ledger, { claims: outage.claims, arrivalSpreadMs: LEAD_MS + LONG_OUTAGE_MS + 20_000 });
  await traffic.prepare().finally(booted);
  const pids = stack.processes().map((p) => p.child.pid);
  let audit: LongAudit;
  try {
    traffic.start();
    await sleep(LEAD_MS);
    traffic.phase('during');
    const how = await outage.stop();
    ledger.fault(
      `${how} for ${LONG_OUTAGE_MS / 1000} s with ${traffic.claimed.size}/${outage.claims} claims, ${traffic.okFlags.size} flagged plots, ${traffic.decisions.size} decisions done`,
    );
    await sleep(LONG_OUTAGE_MS);
    await outage.resume(ledger);
    traffic.phase('after');
    audit = await settleAndReport(stack, traffic, ledger, Date.now());
  } catch (error) {
    // The report is printed once the ledger settles; a test that never got there says how far it went.
    ledger.printStoppedEarly(error, traffic.describe());
    throw error;
  } finally {
    traffic.abort();
  }
  expect(audit.lost).toEqual([]);
  expect(audit.twice).toEqual([]);
  expect(stack.processes().map((p) => p.child.pid)).toEqual(pids);
  for (const p of stack.processes()) expect(p.child.exitCode, `${p.name} exited`).toBeNull();
  expectCompleteLedger(traffic, ledger);
}

type Phase = 'before' | 'during' | 'after';
type Decision = 'approved' | 'rejected';
const ok = (response: ApiResponse) => response.status >= 200 && response.status < 300;
/** A person pressing the button again: soon at first, then every few seconds (with jitter, so retries spread). */
const backoff = (attempt: number) => Math.min(5000, [1000, 2000, 3000][attempt - 1] ?? 5000) * (0.75 + Math.random() / 2);

/**
 * Claims, visitor flags and an admin's decisions through the gateway, before, during and after a fault.
 * Everything is retried until it gets a 2xx (a 4xx ends the test: nothing here is invalid), and every 2xx
 * is remembered for the ledger: the plot each claim got, the flags each plot got, each decision taken.
 */
export class LongTraffic {
  /** Sessions claimed on a schedule (arrivals spread over the whole run), then those kept for bursts. */
  private scheduled: PaidSession[] = [];
  private reserve: PaidSession[] = [];
  readonly claimed = new Map<string, { plotId: string; screened: boolean }>();
  readonly okFlags = new Map<string, number>();
  readonly decisions = new Map<string, { decision: Decision; answered: boolean }>();
  private current: Phase = 'before';
  private faultEndedAt: number | null = null;
  private readonly byPhase: Record<Phase, { sent: number; ok: number }> = {
    before: { sent: 0, ok: 0 },
    during: { sent: 0, ok: 0 },
    after: { sent: 0, ok: 0 },
  };
  private stopping = false;
  private readonly claims: Promise<void>[] = [];
  private readonly background: Promise<void>[] = [];
  private readonly admin = new Visitor();
  private screenedCount = 0;
  inFlightClaims = 0;
  /** When the last buyer got its plot. */
  claimsDoneAt = 0;

  constructor(
    private readonly stack: FaultStack,
    private readonly ledger: FaultLedger,
    private readonly options: { claims: number; burst?: number; arrivalSpreadMs: number },
  ) {}

  get sessions(): PaidSession[] {
    return [...this.scheduled, ...this.reserve];
  }

  get screenedPlots(): string[] {
    return [...this.claimed.values()].filter((c) => c.screened).map((c) => c.plotId);
  }

  phase(phase: Phase): void {
    this.current = phase;
    if (phase === 'after') this.faultEndedAt = Date.now();
  }

  /**
   * A request still failing RECOVERY_LIMIT_MS after the fault ended will not recover by itself: fail with what it got,
   * rather than retry until the test's timeout hides which request was stuck and on what.
   */
  private giveUpIfStuck(what: string, response: ApiResponse): void {
    if (this.faultEndedAt === null || Date.now() - this.faultEndedAt < RECOVERY_LIMIT_MS) return;
    throw new Error(
      `${what} still answered ${response.status} ${JSON.stringify(response.body)} ${RECOVERY_LIMIT_MS / 1000} s after the fault ended (request id ${response.requestId})`,
    );
  }

  private record<T extends ApiResponse>(kind: string, response: T): T {
    this.ledger.record(kind, response);
    this.byPhase[this.current].sent += 1;
    if (ok(response)) this.byPhase[this.current].ok += 1;
    return response;
  }

  /** Buys every session (checkout needs the database and NATS: before the fault), lets plots learn each payment, signs the admin in. */
  async prepare(): Promise<void> {
    const total = this.options.claims + (this.options.burst ?? 0);
    // Other files' stacks may be booting meanwhile: a checkout whose queries time out is tried again on
    // another spot (its hold may linger until it expires).
    const candidates = spots(this.stack, 1, total * 3);
    const bought = await pool(Array.from({ length: total }), 3, async () => {
      for (let attempt = 1; ; attempt++) {
        const spot = candidates.shift();
        if (!spot) throw new Error('no free spot left to buy');
        try {
          return await buyAndPay(this.stack, 'basic', spot);
        } catch (error) {
          if (attempt >= 10) throw error;
        }
      }
    });
    this.scheduled = bought.slice(0, this.options.claims);
    this.reserve = bought.slice(this.options.claims);
    await eventually(
      async () => (await this.stack.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM plots.entitlements`))[0]?.n === total,
      120_000,
      500,
    );
    await this.login();
  }

  private async login(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const response = this.record(
        'admin sign-in',
        await api(this.stack, 'POST', '/api/admin/login', {
          json: ADMIN,
          visitor: this.admin,
          headers: { 'sec-fetch-site': 'same-origin' },
        }),
      );
      if (ok(response)) return;
      if (response.status >= 400 && response.status < 500 && response.status !== 429)
        throw new Error(`admin sign-in refused: ${response.status} ${JSON.stringify(response.body)}`);
      this.giveUpIfStuck('admin sign-in', response);
      await sleep(backoff(attempt));
    }
  }

  /** Starts the buyers (one arriving every spread/claims ms), two flagging visitors and the admin. */
  start(): void {
    const gap = this.options.arrivalSpreadMs / Math.max(1, this.scheduled.length);
    this.scheduled.forEach((session, i) => this.claims.push(sleep(i * gap).then(() => this.claimUntilDone(session, i))));
    this.background.push(this.flagLoop(), this.flagLoop(), this.adminLoop());
  }

  /** Every reserved buyer presses Claim at the same moment (to have claims inside the service when it is hit). */
  burst(): void {
    const offset = this.scheduled.length;
    this.reserve.forEach((session, i) => this.claims.push(this.claimUntilDone(session, offset + i)));
  }

  private async claimUntilDone(session: PaidSession, i: number): Promise<void> {
    // Every third buyer names the plot with a listed word: the plot is created hidden and goes to review.
    const screened = i % 3 === 1;
    if (screened) this.screenedCount += 1;
    const overrides = screened ? { display_name: SCREENED_NAME(i), message: 'Hold this one for a look.' } : { display_name: `Buyer ${i}` };
    for (let attempt = 1; ; attempt++) {
      this.inFlightClaims += 1;
      const response = this.record('claim', await claimPlot(this.stack, session, overrides).finally(() => (this.inFlightClaims -= 1)));
      if (ok(response)) {
        this.claimed.set(session.sessionId, { plotId: response.body.plot.id, screened });
        if (this.claimed.size === this.sessions.length) this.claimsDoneAt = Date.now();
        return;
      }
      if (response.status >= 400 && response.status < 500)
        throw new Error(`claim ${session.sessionId} refused: ${response.status} ${JSON.stringify(response.body)}`);
      this.giveUpIfStuck(`claim ${session.sessionId}`, response);
      await sleep(backoff(attempt));
    }
  }

  /** A visitor flags a visible (unscreened) plot, retrying until a 2xx; about one flag a second per loop. */
  private async flagLoop(): Promise<void> {
    while (!this.stopping) {
      const clean = [...this.claimed.values()].filter((c) => !c.screened).map((c) => c.plotId);
      if (!clean.length) {
        await sleep(500);
        continue;
      }
      const plotId = clean[Math.floor(Math.random() * clean.length)]!;
      const visitor = new Visitor();
      for (let attempt = 1; ; attempt++) {
        const response = this.record('flag', await flagPlot(this.stack, plotId, visitor));
        if (ok(response)) {
          this.okFlags.set(plotId, (this.okFlags.get(plotId) ?? 0) + 1);
          break;
        }
        if (response.status >= 400 && response.status < 500)
          throw new Error(`flag on ${plotId} refused: ${response.status} ${JSON.stringify(response.body)}`);
        this.giveUpIfStuck(`flag on ${plotId}`, response);
        await sleep(backoff(attempt));
      }
      await sleep(1000);
    }
  }

  /** The admin looks at the queue every few seconds and approves or rejects (in turn) a plot the screen held. */
  private async adminLoop(): Promise<void> {
    let turn = 0;
    while (!this.stopping) {
      await sleep(3000);
      const list = this.record(
        'admin queue',
        await api<Array<{ id: string; source: string }>>(this.stack, 'GET', '/api/admin/flagged-plots', { visitor: this.admin }),
      );
      if (list.status === 401) await this.login();
      if (list.status !== 200) continue;
      const item = list.body.find((i) => i.source === 'screen' && !this.decisions.has(i.id));
      if (item) await this.decide(item.id, turn++ % 2 === 0 ? 'approved' : 'rejected');
    }
  }

  private async decide(plotId: string, decision: Decision): Promise<void> {
    const verb = decision === 'approved' ? 'approve' : 'reject';
    let unanswered = false;
    for (let attempt = 1; ; attempt++) {
      const response = this.record(
        `admin ${verb}`,
        await api(this.stack, 'POST', `/api/admin/${verb}-plot`, {
          json: { plotId },
          visitor: this.admin,
          headers: { 'sec-fetch-site': 'same-origin' },
        }),
      );
      if (ok(response)) {
        this.decisions.set(plotId, { decision, answered: true });
        return;
      }
      // Only this admin decides: 'already decided' after a try whose answer was lost means that try committed.
      if (response.status === 409 && unanswered) {
        this.decisions.set(plotId, { decision, answered: false });
        return;
      }
      if (response.status === 401) await this.login();
      else if (response.status >= 400 && response.status < 500)
        throw new Error(`${verb} ${plotId} refused: ${response.status} ${JSON.stringify(response.body)}`);
      this.giveUpIfStuck(`${verb} ${plotId}`, response);
      unanswered = true;
      await sleep(backoff(attempt));
    }
  }

  /** Waits for every buyer to have a plot, then stops the visitors and the admin (each finishing what it started). */
  async finish(): Promise<void> {
    await Promise.all(this.claims);
    this.stopping = true;
    await Promise.all(this.background);
  }

  /** Abandons everything (a failed test): loops end at their next turn. */
  abort(): void {
    this.stopping = true;
  }

  describe(): string[] {
    const p = this.byPhase;
    return [
      `requests before / during / after the fault: ${p.before.sent} (${p.before.ok} 2xx) / ${p.during.sent} (${p.during.ok} 2xx) / ${p.after.sent} (${p.after.ok} 2xx)`,
      `${this.sessions.length} paid buyers (${this.screenedCount} with a listed word), ${[...this.okFlags.values()].reduce((a, b) => a + b, 0)} flags on ${this.okFlags.size} plots, ${this.decisions.size} decisions (${[...this.decisions.values()].filter((d) => d.decision === 'approved').length} approved; ${[...this.decisions.values()].filter((d) => !d.answered).length} whose answer was lost)`,
    ];
  }
}

export interface LongAudit {
  lost: Array<[number, string]>;
  twice: Array<[number, string]>;
  rows: number;
  events: number;
}

/**
 * The ledger of a long fault, from SQL (and, with `stream`, the stream itself): every 2xx has its row, every
 * event its effect once in every consumer, every screened plot its review, every claimed session its use,
 * every decision its effect in moderation and in plots, and no dead letter anywhere.
 */
export async function auditLong(stack: FaultStack, traffic: LongTraffic, options: { stream?: boolean } = {}): Promise<LongAudit> {
  const { db } = stack;
  const audit: LongAudit = { lost: [], twice: [], rows: 0, events: 0 };
  const lost = (n: number, what: string) => n > 0 && audit.lost.push([n, what]);
  const twice = (n: number, what: string) => n > 0 && audit.twice.push([n, what]);
  const count = <T>(rows: T[], key: (r: T) => string) =>
    rows.reduce((m, r) => m.set(key(r), (m.get(key(r)) ?? 0) + 1), new Map<string, number>());

  // Claims: every 2xx has its plot; every paid buyer has one; a held plot stays hidden until approved.
  const plots = await db.query<{ id: string; session: string; visible: boolean; reviewed: boolean; removed: boolean }>(
    `SELECT id::text, stripe_session_id AS session, visible, reviewed, removed_at IS NOT NULL AS removed FROM plots.plots`,
  );
  audit.rows += plots.length;
  const plotBySession = new Map(plots.map((p) => [p.session, p]));
  const plotById = new Map(plots.map((p) => [p.id, p]));
  lost(
    [...traffic.claimed].filter(([session, c]) => plotBySession.get(session)?.id !== c.plotId).length,
    'claims answered 2xx without their plot row',
  );
  lost(traffic.sessions.length - traffic.claimed.size, 'paid buyers without a plot');
  lost(
    traffic.screenedPlots.filter((id) => plotById.get(id)?.visible && traffic.decisions.get(id)?.decision !== 'approved').length,
    'held plots shown without an approval',
  );

  // Flags: every visitor's 2xx is one row.
  const flagRows = await db.query<{ plot_id: string }>(`SELECT plot_id::text FROM plots.plot_flags`);
  audit.rows += flagRows.length;
  const flagsByPlot = count(flagRows, (r) => r.plot_id);
  lost(
    [...traffic.okFlags].filter(([id, n]) => (flagsByPlot.get(id) ?? 0) < n).length,
    'flagged plots with fewer flag rows than 2xx flags',
  );
  twice(
    [...flagsByPlot].filter(([id, n]) => n > (traffic.okFlags.get(id) ?? 0)).length,
    'flagged plots with more flag rows than 2xx flags',
  );

  // Events: published, and applied in every consumer of their type.
  const waiting = Object.entries(await unpublished(db)).filter(([, n]) => n > 0);
  lost(
    waiting.reduce((n, [, m]) => n + m, 0),
    `events still in outboxes (${waiting.map(([s, n]) => `${s} ${n}`).join(', ')})`,
  );
  const consumers = await auditConsumers(db, stack.stream);
  audit.events += consumers.pairs;
  for (const c of consumers.byConsumer) lost(c.expected - c.applied, `${c.type} events not applied by ${c.consumer}`);
  if (options.stream) {
    const outboxIds = new Set<string>();
    for (const schema of Object.keys(await unpublished(db))) {
      for (const r of await db.query<{ id: string }>(`SELECT id::text FROM "${schema}".outbox_events`)) outboxIds.add(r.id);
    }
    const messages = await readStream(stack.stream);
    audit.rows += outboxIds.size + messages.length;
    const inStream = new Set(messages.map((m) => m.event.id));
    lost([...outboxIds].filter((id) => !inStream.has(id)).length, 'outbox events never published to the stream');
  }

  // Payments: every claimed session used once, by its plot; plots: one entitlement per paid session.
  const used = await db.query<{ session_id: string; plot_id: string }>(`SELECT session_id, plot_id::text FROM payments.used_sessions`);
  audit.rows += used.length;
  const usedCount = count(used, (u) => u.session_id);
  const usedPlot = new Map(used.map((u) => [u.session_id, u.plot_id]));
  lost(
    [...traffic.claimed].filter(([session, c]) => usedPlot.get(session) !== c.plotId).length,
    'claimed sessions not recorded as used (by their plot) in payments',
  );
  twice([...usedCount.values()].filter((n) => n > 1).length, 'sessions recorded as used more than once');
  const entitlements = await db.query<{ session_id: string }>(`SELECT session_id FROM plots.entitlements`);
  audit.rows += entitlements.length;
  const entitled = count(entitlements, (e) => e.session_id);
  lost(traffic.sessions.filter((s) => !entitled.has(s.sessionId)).length, 'paid sessions without their entitlement in plots');
  twice([...entitled.values()].filter((n) => n > 1).length, 'sessions entitled more than once');

  // Moderation: every held plot reviewed, every flag counted, every decision recorded once.
  const items = await db.query<{ plot_id: string; status: string; source: string; flag_count: number }>(
    `SELECT plot_id::text, status, source, flag_count FROM moderation.review_items`,
  );
  audit.rows += items.length;
  const screenedItems = count(
    items.filter((i) => i.source === 'screen' || i.source === 'both'),
    (i) => i.plot_id,
  );
  lost(traffic.screenedPlots.filter((id) => !screenedItems.has(id)).length, "held (screened) plots missing from moderation's review queue");
  twice([...screenedItems.values()].filter((n) => n > 1).length, 'screened plots queued for review more than once');
  const pendingFlags = new Map(items.filter((i) => i.status === 'pending' && i.source !== 'screen').map((i) => [i.plot_id, i.flag_count]));
  lost(
    [...traffic.okFlags].filter(([id, n]) => (pendingFlags.get(id) ?? 0) < n).length,
    'flagged plots whose review counts fewer flags than 2xx flags',
  );
  twice(
    [...traffic.okFlags].filter(([id, n]) => (pendingFlags.get(id) ?? 0) > n).length,
    'flagged plots whose review counts more flags than 2xx flags',
  );
  const statusOf = new Map(items.filter((i) => i.status !== 'pending').map((i) => [i.plot_id, i.status]));
  lost([...traffic.decisions].filter(([id, d]) => statusOf.get(id) !== d.decision).length, 'decisions without their review status');
  const auditRows = await db.query<{ plot_id: string }>(`SELECT plot_id::text FROM moderation.moderation_audit`);
  audit.rows += auditRows.length;
  const audits = count(auditRows, (a) => a.plot_id);
  lost([...traffic.decisions.keys()].filter((id) => !audits.has(id)).length, 'decisions without their audit row');
  twice([...audits.values()].filter((n) => n > 1).length, 'plots with more than one audit row');

  // Plots applied each decision once: published (visible, reviewed) or removed, with one event each.
  const decisionEvents = await db.query<{ subject: string; plot_id: string }>(
    `SELECT subject, payload->'data'->>'plotId' AS plot_id FROM plots.outbox_events WHERE subject IN ('plots.plot.published', 'plots.plot.removed')`,
  );
  audit.rows += decisionEvents.length;
  const published = count(
    decisionEvents.filter((e) => e.subject === 'plots.plot.published'),
    (e) => e.plot_id,
  );
  const removed = count(
    decisionEvents.filter((e) => e.subject === 'plots.plot.removed'),
    (e) => e.plot_id,
  );
  const approvals = [...traffic.decisions].filter(([, d]) => d.decision === 'approved').map(([id]) => id);
  const rejections = [...traffic.decisions].filter(([, d]) => d.decision === 'rejected').map(([id]) => id);
  lost(
    approvals.filter((id) => !(plotById.get(id)?.visible && plotById.get(id)?.reviewed) || !published.has(id)).length,
    'approvals not applied by plots',
  );
  lost(rejections.filter((id) => !plotById.get(id)?.removed || !removed.has(id)).length, 'rejections not applied by plots');
  twice([...published.values(), ...removed.values()].filter((n) => n > 1).length, 'decisions applied more than once by plots');

  // Nothing given up on.
  const dead = await deadLetterRows(db);
  lost(
    dead.length,
    `dead letters (${dead
      .slice(0, 3)
      .map((d) => `${d.schema}/${d.consumer} ${d.subject}: ${d.error}`)
      .join('; ')})`,
  );
  return audit;
}

/**
 * After the fault: waits until every buyer is served and the ledger is complete, and returns the seconds
 * from `endedAt` (the end of the fault) until then. Then writes the full audit (with the stream) into the
 * ledger and prints the report.
 */
export async function settleAndReport(
  stack: FaultStack,
  traffic: LongTraffic,
  ledger: FaultLedger,
  endedAt: number,
  /**
   * `stream: false` leaves out the check that every outbox event is in the stream (a broker that lost its store lost
   * them: nats-data-loss.test.ts); `beforePrint` adds to the ledger once it settled.
   */
  options: { stream?: boolean; beforePrint?: (ledger: FaultLedger) => Promise<void> } = {},
): Promise<LongAudit> {
  await traffic.finish();
  ledger.note(`every buyer had a plot ${((traffic.claimsDoneAt - endedAt) / 1000).toFixed(1)} s after the fault ended`);
  try {
    await eventually(async () => (await auditLong(stack, traffic)).lost.length === 0, RECOVERY_LIMIT_MS, 1000);
    ledger.recovered((Date.now() - endedAt) / 1000);
  } catch {
    ledger.note(`ledger still incomplete ${RECOVERY_LIMIT_MS / 1000} s after the fault ended`);
  }
  const audit = await auditLong(stack, traffic, { stream: options.stream ?? true });
  ledger.checked(audit.rows);
  ledger.events(audit.events);
  for (const [n, what] of audit.lost) ledger.missing(n, what);
  for (const [n, what] of audit.twice) ledger.twice(n, what);
  for (const line of traffic.describe()) ledger.note(line);
  await options.beforePrint?.(ledger);
  ledger.print();
  return audit;
}
