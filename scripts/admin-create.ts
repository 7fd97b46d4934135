// `npm run admin:create -- <username> [--passkey]`: creates an admin user through the gateway's own CLI
// (services/gateway/src/cli/create-admin.ts), which owns the users table and password hashing; with --passkey it prints
// a one-time link (<PUBLIC_ORIGIN or http://localhost:8080>/admin#passkey=…) that adds a passkey to that admin.
// DATABASE_URL defaults to what `npm start` uses (same PostgreSQL detection, database pixel_atlas), so it works on
// the same machine with no setup; an embedded PostgreSQL started for the purpose is stopped afterwards.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runRepositoryCli } from './lib/cli.ts';
import { ensureDatabase, withDatabase } from './lib/infra.ts';
import { ROOT, runGenerate } from './lib/workspace.ts';

await runRepositoryCli({
  tag: 'admin:create',
  cli: path.join('services', 'gateway', 'src', 'cli', 'create-admin.ts'),
  args: process.argv.slice(2),
  infra: { nats: false },
  async env(infra, say) {
    const databaseUrl = process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas');
    if (!process.env.DATABASE_URL) await ensureDatabase(databaseUrl);
    if (!existsSync(path.join(ROOT, 'services', 'gateway', 'src', 'generated'))) await runGenerate(ROOT, { log: say });
    return { NODE_ENV: process.env.NODE_ENV || 'development', DATABASE_URL: databaseUrl };
  },
});
