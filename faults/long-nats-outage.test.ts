import { expect, it } from 'vitest';
import { FaultLedger, unpublished } from './support/checks.ts';
import { LEAD_MS, LONG_OUTAGE_MS, LONG_TEST_TIMEOUT_MS, LongTraffic, expectCompleteLedger, longFaultFile, settleAndReport } from './support/long-outage.ts';
import { sleep } from './support/traffic.ts';

// The file's own nats-server is killed and stays down for FAULTS_LONG_OUTAGE_MS (5 min by default), longer
// than every back-off and reconnect delay, under the same claims, flags and admin decisions. Whatever was
// answered 2xx waits in the outboxes; when the broker is back (same store), without restarting anything,
// every event must reach every consumer once and nothing may be dead-lettered.
const CLAIMS = 45;

const { rig, booted } = longFaultFile();

it(`NATS down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation: no 2xx lost, every event applied once, no dead letter`, async () => {
  const { nats, stack } = rig;
  const ledger = new FaultLedger(`NATS down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation`);
  const traffic = new LongTraffic(stack, ledger, { claims: CLAIMS, arrivalSpreadMs: LEAD_MS + LONG_OUTAGE_MS + 20_000 });
  await traffic.prepare().finally(booted);
  const pids = stack.processes().map((p) => p.child.pid);
  try {
    traffic.start();
    await sleep(LEAD_MS);
    traffic.phase('during');
    await nats.stop();
    ledger.fault(
      `nats-server killed (SIGKILL) for ${LONG_OUTAGE_MS / 1000} s with ${traffic.claimed.size}/${CLAIMS} claims, ${traffic.okFlags.size} flagged plots, ${traffic.decisions.size} decisions done`,
    );
    await sleep(LONG_OUTAGE_MS);
    const waiting = Object.entries(await unpublished(stack.db)).filter(([, n]) => n > 0);
    ledger.note(`events waiting in outboxes when NATS came back: ${waiting.map(([schema, n]) => `${schema} ${n}`).join(', ') || 'none'}`);
    await nats.resume();
    traffic.phase('after');
    const endedAt = Date.now();
    const audit = await settleAndReport(stack, traffic, ledger, endedAt);
    expect(audit.lost).toEqual([]);
    expect(audit.twice).toEqual([]);
  } finally {
    traffic.abort();
  }
  expect(stack.processes().map((p) => p.child.pid)).toEqual(pids);
  expectCompleteLedger(traffic, ledger);
}, LONG_TEST_TIMEOUT_MS);
