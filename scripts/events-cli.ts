// `npm run events:dead-letters -- [--all] [<consumer|id>]` and `npm run events:replay -- <consumer|id>`: the events
// consumers gave up on, kept in each consuming service's dead_letter_events table, and their replay through the
// same idempotent inbox (packages/service-kit/src/dead-letters-cli.ts does the work).
// DATABASE_URL and NATS_URL default to what `npm start` uses (same detection, database pixel_atlas); an embedded
// PostgreSQL or nats-server started for the purpose is stopped afterwards. Listing needs no NATS.
import path from 'node:path';
import { runRepositoryCli } from './lib/cli.ts';
import { withDatabase } from './lib/infra.ts';

const [command, ...args] = process.argv.slice(2);

await runRepositoryCli({
  tag: 'events',
  cli: path.join('packages', 'service-kit', 'src', 'dead-letters-cli.ts'),
  args: [command ?? '', ...args],
  infra: { nats: command === 'replay' },
  async env(infra) {
    return {
      DATABASE_URL: process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas'),
      ...(command === 'replay' ? { NATS_URL: infra.natsUrl } : {}),
      // A broker started by ensureInfra has one user per service: the replay publishes as the event's producer.
      ...Object.fromEntries(
        Object.entries(infra.natsPasswords ?? {}).map(([service, password]) => [`NATS_PASSWORD_${service.toUpperCase()}`, password]),
      ),
    };
  },
});
