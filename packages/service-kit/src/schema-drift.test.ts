// Every service's schema.prisma must describe exactly what its migrations build: the generated client is written from
// the former, production runs the latter (through `migrate()`), and nothing else compares the two.
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SERVICES } from '@pixel-atlas/contracts/services';
import { afterAll, expect, it } from 'vitest';
import { migrate } from './migrate.ts';
import { schemaDrift } from './schema-drift.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

const servicesDir = path.resolve(import.meta.dirname, '../../../services');

/** Every service with a Prisma schema, found on disk so a new service is checked without anyone listing it. */
const services = readdirSync(servicesDir)
  .filter((name) => existsSync(path.join(servicesDir, name, 'prisma', 'schema.prisma')))
  .sort();

/** The PostgreSQL schema the service migrates and queries (`SCHEMA` in its src/db.ts), as production uses it. */
function schemaOf(service: string): string {
  const entry = (SERVICES as Record<string, { schema: string } | undefined>)[service];
  if (!entry) throw new Error(`services/${service} has no line in packages/contracts/src/services.ts`);
  return entry.schema;
}

const databases: TestDatabase[] = [];

afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

/** A scratch database of its own, migrated by the runner production uses, then diffed against the schema file. */
async function driftOf(prismaDir: string, schema: string): Promise<string> {
  const db = await createTestDatabase();
  databases.push(db);
  await migrate({ connectionString: db.url, schema, migrationsDir: path.join(prismaDir, 'migrations') });
  return schemaDrift({ databaseUrl: db.url, schema, schemaPath: path.join(prismaDir, 'schema.prisma') });
}

it('finds the services to check', () => {
  expect(services.length).toBeGreaterThan(0);
});

it.each(services)('services/%s: schema.prisma and the database its migrations build agree', async (service) => {
  const drift = await driftOf(path.join(servicesDir, service, 'prisma'), schemaOf(service));
  expect(
    drift,
    `services/${service}/prisma/schema.prisma and its migrations disagree. The SQL that would bring the migrated ` +
      `database to schema.prisma (write a migration for it, or fix the schema):\n${drift}\n`,
  ).toBe('');
});

it('reports a field added to schema.prisma with no migration for it', async () => {
  const service = services[0] as string;
  const copy = await mkdtemp(path.join(os.tmpdir(), 'pa-schema-drift-'));
  try {
    await cp(path.join(servicesDir, service, 'prisma'), copy, { recursive: true });
    const schemaPath = path.join(copy, 'schema.prisma');
    const original = await readFile(schemaPath, 'utf8');
    const withField = original.replace(/^model \w+ \{\n/m, (line) => `${line}  driftProbe Int? @map("drift_probe")\n`);
    expect(withField).not.toBe(original);
    await writeFile(schemaPath, withField);

    const drift = await driftOf(copy, schemaOf(service));
    expect(drift).toMatch(/ADD COLUMN\s+"drift_probe" INTEGER/);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});
