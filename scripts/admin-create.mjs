#!/usr/bin/env node
// `npm run admin:create -- <args>`: creates an admin user through the gateway's own CLI
// (services/gateway/src/cli/create-admin.ts), which owns the users table and password hashing.
// DATABASE_URL defaults to what `npm start` uses (same PostgreSQL detection, database pixel_atlas), so it works on
// the same machine with no setup; an embedded PostgreSQL started for the purpose is stopped afterwards.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabase, ensureInfra, InfraError, withDatabase } from './lib/infra.mjs';
import { ROOT, runGenerate } from './lib/workspace.mjs';

process.chdir(ROOT);
const say = (message) => console.error(`[admin:create] ${message}`);
const CLI = path.join('services', 'gateway', 'src', 'cli', 'create-admin.ts');

let infra;
async function main() {
  infra = await ensureInfra({ root: ROOT, log: say, nats: false });
  const databaseUrl = process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas');
  if (!process.env.DATABASE_URL) await ensureDatabase(databaseUrl);
  if (!existsSync(path.join(ROOT, 'services', 'gateway', 'src', 'generated'))) await runGenerate(ROOT, { log: say });
  const env = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'development',
    DATABASE_URL: databaseUrl,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...process.argv.slice(2)], { cwd: ROOT, env, stdio: 'inherit' });
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
