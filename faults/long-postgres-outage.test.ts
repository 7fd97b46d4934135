import { it } from 'vitest';
import { LONG_OUTAGE_MS, LONG_TEST_TIMEOUT_MS, longFaultFile, runLongOutage } from './support/long-outage.ts';

// PostgreSQL (the file's own cluster) crashes and stays down for FAULTS_LONG_OUTAGE_MS (5 min by default),
// longer than every back-off in the kit, while buyers claim, visitors flag and an admin approves and rejects
// held plots, all retrying until they get a 2xx. When it is back, without restarting anything, the ledger
// must become complete: every 2xx stored, every event applied once by every consumer, nothing dead-lettered.
const STOP_MODE = (process.env.FAULTS_LONG_PG_STOP_MODE ?? 'immediate') as 'fast' | 'immediate';
const file = longFaultFile();
const title = `PostgreSQL down for ${LONG_OUTAGE_MS / 1000} s under claims, flags and moderation`;

it(
  `${title}: no 2xx lost, every event applied once, no dead letter`,
  async () => {
    const { postgres } = file.rig;
    await runLongOutage(file, {
      title,
      claims: 45,
      async stop() {
        await postgres.stop(STOP_MODE);
        return `PostgreSQL stopped (pg_ctl stop -m ${STOP_MODE})`;
      },
      resume: () => postgres.resume(),
    });
  },
  LONG_TEST_TIMEOUT_MS,
);
