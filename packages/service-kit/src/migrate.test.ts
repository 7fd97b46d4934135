import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, MigrationChecksumError } from './migrate.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pa-migrations-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db?.drop();
});

async function write(name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

it('refuses to start when an applied migration was edited afterwards, naming it', async () => {
  await write('20260101000000_init', 'CREATE TABLE "things" ("id" int PRIMARY KEY);\n');
  await write('20260102000000_more', 'ALTER TABLE "things" ADD COLUMN "name" text;\n');
  const options = { connectionString: db.url, schema: 'checksums', migrationsDir: dir };
  expect((await migrate(options)).applied).toEqual(['20260101000000_init', '20260102000000_more']);
  // The same files again: nothing to do, no complaint. Line endings alone don't count as an edit (as in Prisma).
  expect((await migrate(options)).applied).toEqual([]);
  await write('20260101000000_init', 'CREATE TABLE "things" ("id" int PRIMARY KEY);\r\n');
  expect((await migrate(options)).applied).toEqual([]);

  // Edited after it was applied, and a new migration waiting: stop before applying anything.
  await write('20260101000000_init', 'CREATE TABLE "things" ("id" bigint PRIMARY KEY);\n');
  await write('20260103000000_later', 'CREATE TABLE "later" ("id" int);\n');
  const failure = await migrate(options).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(MigrationChecksumError);
  expect((failure as Error).message).toMatch(/^migration 20260101000000_init was modified after it was applied to schema checksums/);
  expect(await db.query(`SELECT to_regclass('checksums.later') IS NULL AS absent`)).toEqual([{ absent: true }]);

  // Restored: starts again and applies the new one.
  await write('20260101000000_init', 'CREATE TABLE "things" ("id" int PRIMARY KEY);\n');
  expect((await migrate(options)).applied).toEqual(['20260103000000_later']);
});
