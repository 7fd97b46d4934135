import { expect, it } from 'vitest';
import { FaultLedger } from './support/checks.ts';
import { LEAD_MS, LONG_OUTAGE_MS, LONG_TEST_TIMEOUT_MS, LongTraffic, expectCompleteLedger, longFaultFile, settleAndReport } from './support/long-outage.ts';
import { sleep } from './support/traffic.ts';

// PostgreSQL (the file's own cluster) crashes and stays down for FAULTS_LONG_OUTAGE_MS (5 min by default),
// longer than every back-off in the kit, while buyers claim, visitors flag and an admin approves and rejects
// held plots, all retrying until they get a 2xx. When it is back, without restarting anything, the ledger
// must become complete: every 2xx stored, every event applied once by every consumer, nothing dead-lettered.
const CLAIMS = 45;
const STOP_MODE = (process.env.FAULTS_LONG_PG_STOP_MODE ?? 'immediate') as 'fast' | 'immediate';

const { rig, booted } = longFaultFile();

it(`PostgreSQL down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation: no 2xx lost, every event applied once, no dead letter`, async () => {
  const { postgres, stack } = rig;
  const ledger = new FaultLedger(`PostgreSQL down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation`);
  const traffic = new LongTraffic(stack, ledger, { claims: CLAIMS, arrivalSpreadMs: LEAD_MS + LONG_OUTAGE_MS + 20_000 });
  await traffic.prepare().finally(booted);
  const pids = stack.processes().map((p) => p.child.pid);
  try {
    traffic.start();
    await sleep(LEAD_MS);
    traffic.phase('during');
    await postgres.stop(STOP_MODE);
    ledger.fault(
      `PostgreSQL stopped (pg_ctl stop -m ${STOP_MODE}) for ${LONG_OUTAGE_MS / 1000} s with ${traffic.claimed.size}/${CLAIMS} claims, ${traffic.okFlags.size} flagged plots, ${traffic.decisions.size} decisions done`,
    );
    await sleep(LONG_OUTAGE_MS);
    await postgres.resume();
    traffic.phase('after');
    const endedAt = Date.now();
    const audit = await settleAndReport(stack, traffic, ledger, endedAt);
    expect(audit.lost).toEqual([]);
    expect(audit.twice).toEqual([]);
  } finally {
    traffic.abort();
  }
  // Recovered on their own: no process restarted or exited.
  expect(stack.processes().map((p) => p.child.pid)).toEqual(pids);
  for (const p of stack.processes()) expect(p.child.exitCode, `${p.name} exited`).toBeNull();
  expectCompleteLedger(traffic, ledger);
}, LONG_TEST_TIMEOUT_MS);
