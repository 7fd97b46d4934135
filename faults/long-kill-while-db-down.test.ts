import { expect, it } from 'vitest';
import { FaultLedger } from './support/checks.ts';
import {
  LEAD_MS,
  LONG_OUTAGE_MS,
  LONG_TEST_TIMEOUT_MS,
  LongTraffic,
  expectCompleteLedger,
  longFaultFile,
  settleAndReport,
} from './support/long-outage.ts';
import { replica } from './support/stack.ts';
import { sleep } from './support/traffic.ts';

// A burst of buyers presses Claim at once; while their claims are inside plots (entitlement read, attempt
// counted, land asked, avatar decoded, the insert transaction), PostgreSQL crashes (pg_ctl -m immediate) and,
// a moment later, plots is SIGKILLed. The database stays down for FAULTS_LONG_OUTAGE_MS under the usual traffic;
// then it comes back and plots is started again on the same port. A claim cut off mid-transaction is either
// committed (and its event published) or never happened: the buyer's retry gets the same plot or makes it.
const CLAIMS = 30;
const BURST = 12;

const { rig, booted } = longFaultFile();

it(
  `plots SIGKILLed with claims in flight while PostgreSQL is down (${LONG_OUTAGE_MS / 1000} s), then both back: no 2xx lost, every event applied once, no dead letter`,
  async () => {
    const { postgres, stack } = rig;
    const ledger = new FaultLedger(`plots killed mid-claim while PostgreSQL is down for ${LONG_OUTAGE_MS / 1000} s`);
    const traffic = new LongTraffic(stack, ledger, { claims: CLAIMS, burst: BURST, arrivalSpreadMs: LEAD_MS + LONG_OUTAGE_MS + 20_000 });
    await traffic.prepare().finally(booted);
    try {
      traffic.start();
      await sleep(LEAD_MS);
      traffic.burst();
      // Let the burst get into plots (the gateway forwards at once; each claim then works for a while).
      await sleep(400);
      traffic.phase('during');
      const inFlightAtCrash = traffic.inFlightClaims;
      await postgres.stop('immediate');
      const crashedAt = Date.now();
      // A claim that meets the dead database fails fast and its buyer backs off, so 0.5 s later every buyer may be
      // waiting: plots is killed the moment a claim (a retry, or a new arrival) is in flight again (15 s at most).
      await sleep(500);
      while (traffic.inFlightClaims === 0 && Date.now() - crashedAt < 15_000) await sleep(2);
      const inFlightAtKill = traffic.inFlightClaims;
      await replica(stack, 'plots').stop('SIGKILL');
      const killedAfterS = ((Date.now() - crashedAt) / 1000).toFixed(1);
      ledger.fault(
        `PostgreSQL crashed (pg_ctl stop -m immediate) with ${inFlightAtCrash} claim requests in flight, ${traffic.claimed.size} claims done`,
      );
      ledger.fault(
        `plots SIGKILLed ${killedAfterS} s later with ${inFlightAtKill} claim requests in flight; PostgreSQL kept down ${LONG_OUTAGE_MS / 1000} s`,
      );
      await sleep(LONG_OUTAGE_MS);
      await postgres.resume();
      traffic.phase('after');
      const endedAt = Date.now();
      await stack.restart('plots');
      ledger.fault(
        `PostgreSQL started again, then plots started again on the same port (ready ${((Date.now() - endedAt) / 1000).toFixed(1)} s later)`,
      );
      const audit = await settleAndReport(stack, traffic, ledger, endedAt);
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(audit.lost).toEqual([]);
      expect(audit.twice).toEqual([]);
    } finally {
      traffic.abort();
    }
    expectCompleteLedger(traffic, ledger);
  },
  LONG_TEST_TIMEOUT_MS,
);
