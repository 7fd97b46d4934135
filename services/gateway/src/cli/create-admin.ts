/**
 * `npm run admin:create -- <username> [--passkey]`: creates an admin, or resets the password of an existing one
 * (which signs out their sessions). The password comes from ADMIN_PASSWORD or is asked for on the terminal.
 * With --passkey it also prints a one-time link (valid 60 minutes) that adds a passkey to that admin and signs them
 * in; an existing admin's password is then left as it is.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { migrate } from '@pixel-atlas/service-kit/migrate';
import { createPrismaAdapter } from '@pixel-atlas/service-kit/database';
import path from 'node:path';
import { PrismaClient, SCHEMA } from '../db.ts';
import { createAdminUser } from '../domain/create-admin-user.ts';
import { createPasskeyLink, PASSKEY_LINK_TTL_MINUTES } from '../domain/passkey-links.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { passkey: { type: 'boolean', default: false } } });
const username = positionals[0] ?? process.env.ADMIN_USERNAME;
const databaseUrl = process.env.DATABASE_URL;
if (!username || !databaseUrl) {
  console.error(
    'usage: DATABASE_URL=postgresql://... npm run admin:create -- <username> [--passkey]   (password from ADMIN_PASSWORD or asked)',
  );
  process.exit(2);
}
/** Where the admin opens the link: the site's public address (PUBLIC_ORIGIN), or `npm start`'s. */
const origin = new URL(process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 8080}`).origin;

await migrate({
  connectionString: databaseUrl,
  schema: SCHEMA,
  migrationsDir: path.resolve(import.meta.dirname, '../../prisma/migrations'),
});
const db = new PrismaClient({ adapter: createPrismaAdapter(databaseUrl, SCHEMA) });
try {
  let user = values.passkey ? await db.adminUser.findUnique({ where: { username: username.trim() } }) : null;
  if (!user) {
    let password = process.env.ADMIN_PASSWORD;
    if (!password) {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      password = await rl.question(`Password for ${username} (at least 12 characters): `);
      rl.close();
    }
    const result = await createAdminUser({ db, username, password, resetPasswordIfExists: true });
    user = result.user;
    console.log(result.created ? `Created admin ${username}.` : `Reset the password of ${username} and signed out their sessions.`);
  }
  if (values.passkey) {
    const token = await createPasskeyLink({ db, userId: user.id });
    console.log(`Open this link within ${PASSKEY_LINK_TTL_MINUTES} minutes to add a passkey for ${user.username} (it works once):`);
    console.log(`  ${origin}/admin#passkey=${token}`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
