import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';
import { startServices, type Services, type ServicesOptions } from './services.ts';

export interface ProcessStackOptions extends Pick<ServicesOptions, 'replicas' | 'serviceEnv' | 'readyTimeoutMs' | 'startGate'> {
  /** The test's own nats-server when it stops and restarts it; otherwise the stack's stream gets a broker of its own. */
  nats?: TestNatsServer;
  /** A PostgreSQL server URL (a test's own cluster, or the machine's); a fresh database is made on it. */
  databaseServerUrl?: string;
  /** Environment of every process (over the throwaway database's and stream's), then serviceEnv of each service. */
  env?: Record<string, string>;
  /** A folder that gets every process's output (one file per process) when the stack stops. */
  logDir?: string;
}

export interface ProcessStack extends Services {
  db: TestDatabase;
  stream: TestStream;
  natsUrl: string;
  /** The environment every process got (before per-service additions). */
  env: Record<string, string>;
  /** Land tiles of the generated map, as "x,y". */
  land: Set<string>;
  stop(): Promise<void>;
}

/**
 * The system as production runs it, on one machine (startServices: every replica its own process, the gateway in
 * front), on one throwaway database and stream that stop() removes.
 */
export async function startProcessStack(options: ProcessStackOptions = {}): Promise<ProcessStack> {
  const db = await createTestDatabase(options.databaseServerUrl);
  const stream = await createTestStream(options.nats);
  const env: Record<string, string> = { ...testServiceEnv(db, stream), LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...options.env };
  const removeData = async () => {
    await stream.remove().catch(() => undefined);
    await db.drop().catch(() => undefined);
  };

  let services: Services;
  try {
    const { replicas, serviceEnv, readyTimeoutMs, startGate } = options;
    services = await startServices({ env, replicas, serviceEnv, readyTimeoutMs, startGate });
  } catch (error) {
    await removeData();
    throw error;
  }

  const landRows = services.replicas.map.length
    ? await db.query<{ x: number; y: number }>('SELECT "x", "y" FROM "map"."map_tiles" WHERE "is_land"')
    : [];
  return {
    ...services,
    db,
    stream,
    natsUrl: stream.natsUrl,
    env,
    land: new Set(landRows.map((r) => `${r.x},${r.y}`)),
    async stop() {
      await Promise.allSettled(services.processes().map((s) => s.stop()));
      if (options.logDir) {
        const dir = options.logDir;
        await mkdir(dir, { recursive: true });
        await Promise.all(services.history().map((s, i) => writeFile(path.join(dir, `${db.name}-${i}-${s.name}.log`), s.output())));
      }
      await removeData();
    },
  };
}
