import { TestNatsCluster } from '@pixel-atlas/service-kit/test-nats-server';
import { readStream } from '@pixel-atlas/service-kit/testing';
import { expect, it } from 'vitest';
import { FaultLedger } from './support/checks.ts';
import { ADMIN, LongTraffic, settleAndReport, type LongAudit } from './support/long-outage.ts';
import { oneShortFileAtATime } from './support/serial.ts';
import { faultStackForFile } from './support/stack.ts';
import { sleep, type ApiResponse } from './support/traffic.ts';

// Three nats-servers in one JetStream cluster, the event stream and its durables with a copy on each (R3), every
// service connected with all three URLs. Under claims, flags and an admin's decisions, the stream's leader is
// SIGKILLed, started again on its store and left to catch up; then another node (the new leader) the same way.
// Nothing may be lost or applied twice (the long faults' ledger), and the longest pause between accepted claims
// while the nodes die and come back is measured and reported.
const CLAIMS = Number(process.env.FAULTS_CLUSTER_CLAIMS ?? 120);
/** How long each killed node stays down before it is started again on its store. */
const DOWN_MS = Number(process.env.FAULTS_CLUSTER_NODE_DOWN_MS ?? 5000);
/** Traffic before the first kill, and the whole span the buyers arrive over (they keep arriving after the faults). */
const LEAD_MS = 8000;
const ARRIVAL_SPREAD_MS = 75_000;
/**
 * The goal for the longest pause between accepted claims while nodes die (issue 27): met in every run on a quiet
 * 2-core machine (0.7–1.8 s), missed (6.3 s) in one where other stacks, podman builds and a typecheck starved it
 * (load average 17–35; the pause before the faults was 2.3 s there, and claims got 502s long after the nodes were
 * back): reported, not asserted. What is asserted is that nothing hangs on a dead node (PAUSE_LIMIT_MS).
 */
const PAUSE_GOAL_MS = 5000;
const PAUSE_LIMIT_MS = Number(process.env.FAULTS_CLUSTER_PAUSE_LIMIT_MS ?? 20_000);

oneShortFileAtATime();
const rig = faultStackForFile({
  startNats: () => TestNatsCluster.start(),
  // No contact traffic here: one process fewer.
  replicas: { contact: 0 },
  serviceEnv: {
    gateway: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    // Buyers retry until a 2xx; plots counts every try (the bound protects image decoding): not what this measures.
    plots: { CLAIM_MAX_ATTEMPTS_PER_SESSION: '100000' },
  },
});

/** The ledger, also keeping when each claim was accepted (2xx): the pauses between them are the buyers' wait. */
class ClaimClockLedger extends FaultLedger {
  readonly acceptedAt: number[] = [];
  override record<T extends ApiResponse>(kind: string, response: T): T {
    if (kind === 'claim' && response.status >= 200 && response.status < 300) this.acceptedAt.push(Date.now());
    return super.record(kind, response);
  }
}

/** The longest gap between consecutive accepted claims that touches [from, to]; and the longest before `from`. */
function longestPause(acceptedAt: number[], from: number, to: number): { during: number; before: number } {
  const times = [...acceptedAt].sort((a, b) => a - b);
  let during = 0;
  let before = 0;
  for (let i = 1; i < times.length; i++) {
    const [a, b] = [times[i - 1]!, times[i]!];
    if (b >= from && a <= to) during = Math.max(during, b - a);
    else if (b < from) before = Math.max(before, b - a);
  }
  return { during, before };
}

it(
  `a 3-node NATS cluster, R3 stream: its leader SIGKILLed for ${DOWN_MS / 1000} s and back, then another node, under ${CLAIMS} claims, flags and decisions: nothing lost or applied twice, nothing hangs, the longest pause between claims reported`,
  async () => {
    const { stack } = rig;
    const cluster = rig.nats as TestNatsCluster;
    const ledger = new ClaimClockLedger('NATS cluster (3 nodes, R3): two nodes SIGKILLed in turn under traffic');
    const traffic = new LongTraffic(stack, ledger, { claims: CLAIMS, arrivalSpreadMs: ARRIVAL_SPREAD_MS });
    await traffic.prepare();
    const pids = stack.processes().map((p) => p.child.pid);
    let audit: LongAudit;
    let pause!: { during: number; before: number };
    let storedTwice = 0;
    try {
      traffic.start();
      await sleep(LEAD_MS);
      traffic.phase('during');
      const faultsFrom = Date.now();
      const killed: string[] = [];
      for (let round = 1; round <= 2; round++) {
        // The stream's leader is the harder case (its writes stop until the other two elect one); the second round
        // takes the new leader, or any node not killed yet.
        const leader = await cluster.streamLeader();
        const victim = killed.includes(leader) ? cluster.nodeNames.find((n) => !killed.includes(n))! : leader;
        await cluster.killNode(victim);
        killed.push(victim);
        const killedAt = Date.now();
        ledger.fault(
          `node ${victim} (${victim === leader ? 'the stream leader' : 'a follower'}) SIGKILLed for ${DOWN_MS / 1000} s with ${traffic.claimed.size}/${CLAIMS} claims, ${traffic.okFlags.size} flagged plots, ${traffic.decisions.size} decisions done`,
        );
        await sleep(DOWN_MS);
        await cluster.startNode(victim);
        await cluster.waitCaughtUp();
        ledger.note(
          `${victim} started again on its store and caught up (stream and every durable with a copy on each node) ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill; stream leader now ${await cluster.streamLeader()}`,
        );
      }
      const faultsTo = Date.now();
      traffic.phase('after');

      // The ledger becomes complete: every buyer served, every event applied once by every consumer, no dead letters.
      audit = await settleAndReport(stack, traffic, ledger, faultsTo, {
        async beforePrint() {
          pause = longestPause(ledger.acceptedAt, faultsFrom, faultsTo);
          ledger.note(
            `longest pause between accepted claims while the nodes died and came back (${((faultsTo - faultsFrom) / 1000).toFixed(1)} s): ${(pause.during / 1000).toFixed(2)} s (goal ≤ ${PAUSE_GOAL_MS / 1000} s: ${pause.during <= PAUSE_GOAL_MS ? 'met' : 'MISSED'}); before the faults: ${(pause.before / 1000).toFixed(2)} s (buyers arrive every ${(ARRIVAL_SPREAD_MS / CLAIMS / 1000).toFixed(2)} s)`,
          );
          // The outbox relay retried publishes cut off by the elections under the same Nats-Msg-Id: the stream kept one copy.
          const messages = await readStream(stack.stream);
          const copies = new Map<string, number>();
          for (const m of messages) copies.set(m.event.id, (copies.get(m.event.id) ?? 0) + 1);
          storedTwice = [...copies.values()].filter((n) => n > 1).length;
          ledger.checked(messages.length);
          ledger.note(`events stored twice in the stream: ${storedTwice} of ${copies.size}`);
        },
      });
    } catch (error) {
      ledger.printStoppedEarly(error, traffic.describe());
      throw error;
    } finally {
      traffic.abort();
    }
    expect(audit.lost).toEqual([]);
    expect(audit.twice).toEqual([]);
    expect(storedTwice).toBe(0);
    expect(traffic.screenedPlots.length).toBeGreaterThan(0);
    expect(traffic.decisions.size).toBeGreaterThan(0);
    expect(stack.processes().map((p) => p.child.pid)).toEqual(pids);
    expect(pause.during).toBeLessThanOrEqual(PAUSE_LIMIT_MS);
  },
  10 * 60_000,
);
