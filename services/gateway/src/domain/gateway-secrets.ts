import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db.ts';

/**
 * A random key shared by every replica: the first to start makes it, the others read the same row. Nothing has to be
 * configured, and a key never leaves the database it protects.
 */
export async function loadGatewaySecret(options: { db: PrismaClient; name: string }): Promise<Buffer> {
  const { db, name } = options;
  await db.gatewaySecret.createMany({ data: [{ name, value: randomBytes(32) }], skipDuplicates: true });
  const row = await db.gatewaySecret.findUniqueOrThrow({ where: { name } });
  return Buffer.from(row.value);
}
