#!/usr/bin/env node
// `npm run events:dead-letters -- [--all] [<consumer|id>]` and `npm run events:replay -- <consumer|id>`: the events
// consumers gave up on, kept in each consuming service's dead_letter_events table, and their replay through the
// same idempotent inbox (packages/service-kit/src/dead-letters-cli.ts does the work).
// DATABASE_URL and NATS_URL default to what `npm start` uses (same detection, database pixel_atlas); an embedded
// PostgreSQL or nats-server started for the purpose is stopped afterwards. Listing needs no NATS.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureInfra, InfraError, withDatabase } from './lib/infra.mjs';
import { ROOT } from './lib/workspace.mjs';

process.chdir(ROOT);
const say = (message) => console.error(`[events] ${message}`);
const CLI = path.join('packages', 'service-kit', 'src', 'dead-letters-cli.ts');
const [command, ...args] = process.argv.slice(2);

let infra;
async function main() {
  infra = await ensureInfra({ root: ROOT, log: say, nats: command === 'replay' });
  const env = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas'),
    ...(command === 'replay' ? { NATS_URL: infra.natsUrl } : {}),
    // A broker started by ensureInfra has one user per service: the replay publishes as the event's producer.
    ...Object.fromEntries(Object.entries(infra.natsPasswords ?? {}).map(([service, password]) => [`NATS_PASSWORD_${service.toUpperCase()}`, password])),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, command ?? '', ...args], { cwd: ROOT, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  await infra.stop();
  process.exit(code);
}

main().catch(async (err) => {
  say(err instanceof InfraError ? err.message : err instanceof Error ? err.message : String(err));
  if (infra) await infra.stop();
  process.exit(1);
});
