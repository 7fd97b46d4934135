import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import {
  FaultLedger,
  expectAnsweredWritesStored,
  expectFlagsQueued,
  expectSessionsUsedByTheirPlots,
  outboxRows,
  outboxesDrained,
} from './support/checks.ts';
import { faultStackForFile, type BackendName } from './support/stack.ts';
import { Visitor, api, buyMany, claimPlot, flagPlot, pool, sleep, spots, type PaidSession } from './support/traffic.ts';
import { oneShortFileAtATime } from './support/serial.ts';

// The test's own PostgreSQL cluster is stopped under traffic and started again. Every service must say
// it is not ready while the database is away (so the gateway and orchestrators stop sending it work),
// become ready again on its own (same process), and never answer 2xx for a write that was not stored.
const CLAIMS = 60;
const DOWN_MS = 6000;
const STOP_MODES = (process.env.FAULTS_PG_STOP_MODES ?? 'fast,immediate').split(',') as Array<'fast' | 'immediate'>;

oneShortFileAtATime();
const rig = faultStackForFile({ ownPostgres: true });

async function readiness(url: string): Promise<{ status: number; body: any }> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(4000) });
    return { status: response.status, body: await response.json().catch(() => null) };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

it('PostgreSQL stopped and started under traffic: not ready while down, ready again without a restart, no 2xx without its write', async () => {
  const { stack, postgres } = rig;
  const ledger = new FaultLedger('PostgreSQL restarted under traffic');
  const sessions = await buyMany(stack, 'basic', spots(stack, 1, CLAIMS));
  const processes = [
    ...(Object.entries(stack.replicas) as Array<[BackendName, (typeof stack.gateway)[]]>).flatMap(([, list]) => list),
    stack.gateway,
  ];
  const pids = new Map(processes.map((p) => [p.url, p.child.pid]));

  const claimed = new Map<string, string>(); // sessionId → plotId answered 2xx
  const contactIds: string[] = [];
  const okFlags = new Map<string, number>();
  let stop = false;

  let faultOver = false;
  const claimUntilDone = async (session: PaidSession, index: number) => {
    await sleep(index * 250);
    // A claim is retried for as long as the database is being stopped and started (however long that takes on a busy
    // machine), then 40 times more: once every process is ready again, a claim that still fails is a finding.
    for (let afterFault = 0; afterFault < 40;) {
      const response = ledger.record('claim', await claimPlot(stack, session));
      if (response.status === 200 || response.status === 201) {
        claimed.set(session.sessionId, response.body.plot.id);
        return;
      }
      if (response.status >= 400 && response.status < 500)
        throw new Error(`claim refused: ${response.status} ${JSON.stringify(response.body)}`);
      await sleep(400);
      if (faultOver) afterFault += 1;
    }
    throw new Error(`claim for ${session.sessionId} never succeeded`);
  };
  const visitors = async () => {
    let i = 0;
    while (!stop) {
      i += 1;
      const contact = ledger.record(
        'contact',
        await api(stack, 'POST', '/api/contact', {
          json: { name: `Writer ${i}`, email: `w${i}@example.com`, subject: 'technical', message: `Is the database up? (${i})` },
        }),
      );
      if (contact.status === 201) contactIds.push(contact.body.id);
      ledger.record('read /api/plots', await api(stack, 'GET', '/api/plots'));
      ledger.record('read /api/map-layout', await api(stack, 'GET', '/api/map-layout'));
      const plotIds = [...claimed.values()];
      if (plotIds.length) {
        // modulo a non-empty list's length
        const plotId = plotIds[i % plotIds.length]!;
        const flag = ledger.record('flag', await flagPlot(stack, plotId, new Visitor()));
        if (flag.status < 300) okFlags.set(plotId, (okFlags.get(plotId) ?? 0) + 1);
      }
      await sleep(100);
    }
  };

  // Twice: a fast shutdown (sessions told to go), then a crash (SIGQUIT to every backend, recovery at start).
  const notReadySeen = new Map<string, Map<string, string>>(); // mode → process url → /readyz body
  const fault = (async () => {
    try {
      for (const mode of STOP_MODES) {
        const seen = new Map<string, string>();
        notReadySeen.set(mode, seen);
        await sleep(3000);
        await postgres.stop(mode);
        ledger.fault(`PostgreSQL stopped (pg_ctl stop -m ${mode}) for ${DOWN_MS / 1000} s, ${claimed.size}/${CLAIMS} claims done`);
        const until = Date.now() + DOWN_MS;
        while (Date.now() < until) {
          await Promise.all(
            processes.map(async (p) => {
              if (seen.has(p.url)) return;
              const ready = await readiness(p.metricsUrl);
              if (ready.status === 503) seen.set(p.url, JSON.stringify(ready.body?.checks ?? ready.body));
            }),
          );
          await sleep(250);
        }
        await postgres.resume();
        const resumedAt = Date.now();
        // Ready within a minute of PostgreSQL's return (0.0-0.2 s on a quiet machine; a CI run at load went past 30 s
        // without saying which process): one still not ready is named with what its checks answered.
        await eventually(
          async () => {
            const answers = await Promise.all(processes.map(async (p) => ({ p, ...(await readiness(p.metricsUrl)) })));
            const waiting = answers.filter((a) => a.status !== 200);
            const why = ({ p, status, body }: (typeof answers)[number]) =>
              p.child.exitCode === null && p.child.signalCode === null
                ? `${p.name}: ${status} ${JSON.stringify(body)}`
                : `${p.name} exited (${p.child.exitCode ?? p.child.signalCode}):\n${p.output().slice(-3000)}`;
            if (waiting.length) throw new Error(waiting.map(why).join('; '));
            return true;
          },
          60_000,
          100,
        );
        ledger.note(
          `after -m ${mode}: ${seen.size}/${processes.length} processes reported not-ready (database), all ready again ${((Date.now() - resumedAt) / 1000).toFixed(1)} s after PostgreSQL accepted connections`,
        );
      }
    } finally {
      faultOver = true;
    }
  })();
  const background = visitors();
  await Promise.all([pool(sessions, CLAIMS, claimUntilDone), fault]);
  // Every process is ready again on its own: same pid, /readyz 200.
  expect((await Promise.all(processes.map((p) => readiness(p.metricsUrl)))).map((r) => r.status)).toEqual(processes.map(() => 200));
  await sleep(1000);
  stop = true;
  await background;

  for (const p of processes) {
    expect(p.child.exitCode, `${p.name} exited:\n${p.output().slice(-3000)}`).toBeNull();
    expect(p.child.pid).toBe(pids.get(p.url));
    for (const mode of STOP_MODES)
      expect(notReadySeen.get(mode)!.get(p.url), `${p.name} never reported not-ready (-m ${mode})`).toMatch(/database/);
  }

  // No 2xx without its write.
  const { plotBySession } = await expectAnsweredWritesStored(stack.db, ledger, { claims: claimed, contactIds });
  expect(claimed.size).toBe(CLAIMS);

  // And what they wrote went out: outboxes drain, consumers apply each event once.
  await outboxesDrained(stack.db, 60_000);
  const outbox = [
    ...(await outboxRows(stack.db, 'plots')),
    ...(await outboxRows(stack.db, 'contact')),
    ...(await outboxRows(stack.db, 'payments')),
  ];
  ledger.checked(outbox.length);
  const streamIds = new Set((await readStream(stack.stream)).map((m) => m.event.id));
  const unsent = outbox.filter((r) => !streamIds.has(r.id)).length;
  ledger.missing(unsent, 'outbox events not in the stream');
  expect(unsent).toBe(0);
  await expectSessionsUsedByTheirPlots(stack.db, ledger, plotBySession, CLAIMS);
  await expectFlagsQueued(stack.db, ledger, okFlags);
  ledger.print();
  expect(ledger.lost).toBe(0);
});
