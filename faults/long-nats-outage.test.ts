import { it } from 'vitest';
import { unpublished } from './support/checks.ts';
import { LONG_OUTAGE_MS, LONG_TEST_TIMEOUT_MS, longFaultFile, runLongOutage } from './support/long-outage.ts';

// The file's own nats-server is killed and stays down for FAULTS_LONG_OUTAGE_MS (5 min by default), longer
// than every back-off and reconnect delay, under the same claims, flags and admin decisions. Whatever was
// answered 2xx waits in the outboxes; when the broker is back (same store), without restarting anything,
// every event must reach every consumer once and nothing may be dead-lettered.
const file = longFaultFile();
const title = `NATS down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation`;

it(
  `${title}: no 2xx lost, every event applied once, no dead letter`,
  async () => {
    const { nats, stack } = file.rig;
    await runLongOutage(file, {
      title,
      claims: 45,
      async stop() {
        await nats.stop();
        return 'nats-server killed (SIGKILL)';
      },
      async resume(ledger) {
        const waiting = Object.entries(await unpublished(stack.db)).filter(([, n]) => n > 0);
        ledger.note(
          `events waiting in outboxes when NATS came back: ${waiting.map(([schema, n]) => `${schema} ${n}`).join(', ') || 'none'}`,
        );
        await nats.resume();
      },
    });
  },
  LONG_TEST_TIMEOUT_MS,
);
