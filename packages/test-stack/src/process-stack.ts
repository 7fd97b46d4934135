import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { freePort, type TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';

export type BackendName = 'map' | 'plots' | 'payments' | 'moderation' | 'contact';
export type ServiceName = BackendName | 'gateway';

export const BACKENDS: readonly BackendName[] = ['map', 'plots', 'payments', 'moderation', 'contact'];

/** The gateway variable that lists a backend's replicas (comma-separated base URLs). */
const UPSTREAM_ENV: Record<BackendName, string> = {
  map: 'MAP_URL',
  plots: 'PLOTS_URL',
  payments: 'PAYMENTS_URL',
  moderation: 'MODERATION_URL',
  contact: 'CONTACT_URL',
};

/** Where a left-out backend's upstream points: the discard port, so the gateway refuses its routes quickly. */
const NOWHERE = 'http://127.0.0.1:9';

export interface ProcessStackOptions {
  /** The test's own nats-server when it stops and restarts it; otherwise the stack's stream gets a broker of its own. */
  nats?: TestNatsServer;
  /** A PostgreSQL server URL (a test's own cluster, or the machine's); a fresh database is made on it. */
  databaseServerUrl?: string;
  /** Replicas per backend (default 1 each); 0 leaves a backend out. */
  replicas?: Partial<Record<BackendName, number>>;
  /** Environment of every process, then of each service. */
  env?: Record<string, string>;
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** How long a process may take to answer /readyz. */
  readyTimeoutMs?: number;
  /** Runs the boot, e.g. under a lock so the stacks of parallel test files start one at a time. */
  startGate?: <T>(boot: () => Promise<T>) => Promise<T>;
  /** A folder that gets every process's output (one file per process) when the stack stops. */
  logDir?: string;
}

export interface ProcessStack {
  /** The gateway's base URL: the site as a visitor sees it. */
  url: string;
  gateway: ServiceProcess;
  /** Every running replica, by backend. */
  replicas: Record<BackendName, ServiceProcess[]>;
  db: TestDatabase;
  stream: TestStream;
  natsUrl: string;
  /** The environment every process got (before per-service additions). */
  env: Record<string, string>;
  /** Land tiles of the generated map, as "x,y". */
  land: Set<string>;
  envFor(name: ServiceName): Record<string, string>;
  /** Every running process, the gateway last. */
  processes(): ServiceProcess[];
  /** SIGKILLs replica `index` of `name` and starts a new process on its port (the gateway's list stays valid). */
  restart(name: BackendName, index?: number): Promise<ServiceProcess>;
  /** Every process's log output (stopped ones included), for failure messages and log assertions. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * A process that exits while booting is started again, as an orchestrator would: on a starved machine map's
 * first-start world generation can outlast its transaction and the process exits (the next start generates it).
 * A process that never becomes ready is not retried.
 */
async function startWithRetry(name: ServiceName, env: Record<string, string>, options: { port?: number; readyTimeoutMs?: number }) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceProcess(name, env, options);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('exited with')) throw error;
    }
  }
}

/**
 * The system as production runs it, on one machine: each backend replica its own process (`src/server.ts`), the
 * gateway in front with comma-separated upstream lists, one throwaway database and stream. Every process starts at
 * once (ports are chosen first, so the gateway's upstream lists are known): no service needs another to boot, and
 * replicas of one service share migrations under an advisory lock.
 */
export async function startProcessStack(options: ProcessStackOptions = {}): Promise<ProcessStack> {
  const db = await createTestDatabase(options.databaseServerUrl);
  const stream = await createTestStream(options.nats);
  const env: Record<string, string> = { ...testServiceEnv(db, stream), LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...options.env };
  const envFor = (name: ServiceName) => ({ ...env, ...options.serviceEnv?.[name] });
  const boot = { readyTimeoutMs: options.readyTimeoutMs };
  const replicas: Record<BackendName, ServiceProcess[]> = { map: [], plots: [], payments: [], moderation: [], contact: [] };
  const retired: ServiceProcess[] = [];
  let gateway: ServiceProcess | undefined;
  const processes = () => [...Object.values(replicas).flat(), ...(gateway ? [gateway] : [])];
  const removeData = async () => {
    await stream.remove().catch(() => undefined);
    await db.drop().catch(() => undefined);
  };

  try {
    const planned: Array<{ name: BackendName; port: number }> = [];
    for (const name of BACKENDS) {
      for (let i = 0; i < (options.replicas?.[name] ?? 1); i++) planned.push({ name, port: await freePort() });
    }
    const upstreams: Record<string, string> = {};
    for (const name of BACKENDS) {
      const urls = planned.filter((p) => p.name === name).map((p) => `http://127.0.0.1:${p.port}`);
      upstreams[UPSTREAM_ENV[name]] = urls.length ? urls.join(',') : NOWHERE;
    }
    const startAll = async () => {
      const backends = planned.map(({ name, port }) => startWithRetry(name, envFor(name), { ...boot, port }));
      const front = startWithRetry('gateway', { ...envFor('gateway'), ...upstreams }, boot);
      return [await Promise.allSettled(backends), await Promise.allSettled([front])] as const;
    };
    // allSettled: when one process fails to start, the others must still be stopped (catch below).
    const [started, [frontStarted]] = await (options.startGate ? options.startGate(startAll) : startAll());
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') replicas[planned[i]!.name].push(result.value);
    });
    if (frontStarted?.status === 'fulfilled') gateway = frontStarted.value;
    const failed = [...started, frontStarted].find((r): r is PromiseRejectedResult => r?.status === 'rejected');
    if (failed) throw failed.reason;
    // The gateway booted beside its upstreams and checks their /readyz every 2 s: let it see every replica ready.
    await new Promise((resolve) => setTimeout(resolve, 2100));
  } catch (error) {
    await Promise.allSettled(processes().map((s) => s.stop('SIGKILL')));
    await removeData();
    throw error;
  }

  const landRows = replicas.map.length ? await db.query<{ x: number; y: number }>('SELECT "x", "y" FROM "map"."map_tiles" WHERE "is_land"') : [];
  const front = gateway!;
  return {
    url: front.url,
    gateway: front,
    replicas,
    db,
    stream,
    natsUrl: stream.natsUrl,
    env,
    land: new Set(landRows.map((r) => `${r.x},${r.y}`)),
    envFor,
    processes,
    async restart(name, index = 0) {
      const old = replicas[name][index];
      if (!old) throw new Error(`${name} has no replica ${index}`);
      await old.stop('SIGKILL');
      retired.push(old);
      const fresh = await startServiceProcess(name, envFor(name), { ...boot, port: old.port });
      replicas[name][index] = fresh;
      return fresh;
    },
    logs() {
      return [...retired, ...processes()].map((s) => s.output()).join('');
    },
    async stop() {
      await Promise.allSettled(processes().map((s) => s.stop()));
      if (options.logDir) {
        const dir = options.logDir;
        await mkdir(dir, { recursive: true });
        await Promise.all([...retired, ...processes()].map((s, i) => writeFile(path.join(dir, `${db.name}-${i}-${s.name}.log`), s.output())));
      }
      await removeData();
    },
  };
}
