/**
 * `npm run admin:create -- <username>`: creates an admin, or resets the password of an existing one
 * (which signs out their sessions). The password comes from ADMIN_PASSWORD or is asked for on the terminal.
 */
import { createInterface } from 'node:readline/promises';
import { migrate } from '@pixel-atlas/service-kit/migrate';
import { createPrismaAdapter } from '@pixel-atlas/service-kit/database';
import path from 'node:path';
import { PrismaClient, SCHEMA } from '../db.ts';
import { createAdminUser } from '../domain/create-admin-user.ts';

const username = process.argv[2] ?? process.env.ADMIN_USERNAME;
const databaseUrl = process.env.DATABASE_URL;
if (!username || !databaseUrl) {
  console.error('usage: DATABASE_URL=postgresql://... npm run admin:create -- <username>   (password from ADMIN_PASSWORD or asked)');
  process.exit(2);
}
let password = process.env.ADMIN_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question(`Password for ${username} (at least 12 characters): `);
  rl.close();
}
await migrate({
  connectionString: databaseUrl,
  schema: SCHEMA,
  migrationsDir: path.resolve(import.meta.dirname, '../../prisma/migrations'),
});
const db = new PrismaClient({ adapter: createPrismaAdapter(databaseUrl, SCHEMA) });
try {
  const { created } = await createAdminUser({ db, username, password, resetPasswordIfExists: true });
  console.log(created ? `Created admin ${username}.` : `Reset the password of ${username} and signed out their sessions.`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
