import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { freePort, type TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';

export type BackendName = 'map' | 'plots' | 'payments' | 'moderation' | 'contact';
const UPSTREAM_KEY: Record<BackendName, string> = {
  map: 'MAP_URL',
  plots: 'PLOTS_URL',
  payments: 'PAYMENTS_URL',
  moderation: 'MODERATION_URL',
  contact: 'CONTACT_URL',
};

export interface FaultStackOptions {
  /** The test's own nats-server (authenticated: every service connects as its own user). */
  nats: TestNatsServer;
  /** A PostgreSQL server URL (the test's own cluster, or the machine's); a fresh database is made on it. */
  databaseServerUrl?: string;
  /** Replicas per service (default 1 each); 0 leaves a service out. */
  replicas?: Partial<Record<BackendName, number>>;
  /** Extra environment, for every process or per service. */
  env?: Record<string, string>;
  serviceEnv?: Partial<Record<BackendName | 'gateway', Record<string, string>>>;
  logLevel?: string;
}

export interface FaultStack {
  gateway: ServiceProcess;
  /** Every running replica, by service. */
  replicas: Record<BackendName, ServiceProcess[]>;
  db: TestDatabase;
  stream: TestStream;
  natsUrl: string;
  /** The environment every backend process got (before per-service additions). */
  env: Record<string, string>;
  /** Land tiles of the generated map, as "x,y". */
  land: Set<string>;
  envFor(name: BackendName | 'gateway'): Record<string, string>;
  /** Starts a (new) process for replica `index` of `name` on the same port as the old one (the gateway's list stays valid). */
  restart(name: BackendName, index?: number): Promise<ServiceProcess>;
  /** Every process's log output, for failure messages and log assertions. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * The system as production runs it, on one machine: each service (and each replica) its own process
 * (`src/server.ts` via startServiceProcess), the gateway in front with comma-separated upstream lists,
 * one throwaway database and stream. Visitors are told apart by X-Forwarded-For (the gateway trusts
 * the proxy header here, as it would behind a load balancer).
 */
export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const db = await createTestDatabase(options.databaseServerUrl);
  const stream = await createTestStream(options.nats);
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-faults-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>faults</title>');
  const env: Record<string, string> = {
    ...testServiceEnv(db, stream),
    LOG_LEVEL: options.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'warn',
    ...options.env,
  };
  const perService: Record<BackendName | 'gateway', Record<string, string>> = {
    map: { MAP_AUTOGENERATE: 'true' },
    plots: {},
    payments: { CHECKOUT_RATE_LIMIT_MAX: '1000000', EXPIRY_SWEEP_INTERVAL_MS: '0' },
    moderation: {},
    contact: { CONTACT_RATE_LIMIT_MAX: '1000000' },
    gateway: { RATE_LIMIT_PER_MINUTE: '100000000', TRUST_PROXY: '1', WEB_DIST_DIR: webDir },
  };
  const envFor = (name: BackendName | 'gateway') => ({ ...env, ...perService[name], ...options.serviceEnv?.[name] });
  const counts: Record<BackendName, number> = { map: 1, plots: 1, payments: 1, moderation: 1, contact: 1, ...options.replicas };
  const replicas: Record<BackendName, ServiceProcess[]> = { map: [], plots: [], payments: [], moderation: [], contact: [] };
  const retired: ServiceProcess[] = [];
  let gateway: ServiceProcess | null = null;

  const all = () => [...Object.values(replicas).flat(), ...(gateway ? [gateway] : [])];
  const cleanUp = async () => {
    await Promise.allSettled(all().map((s) => s.stop('SIGKILL')));
    await stream.remove().catch(() => undefined);
    await db.drop().catch(() => undefined);
    await rm(webDir, { recursive: true, force: true });
  };

  try {
    // Everything at once, the gateway included (ports chosen up front so its upstream lists are known):
    // no service needs another to boot, and replicas of one service share migrations under an advisory lock.
    const planned: Array<[BackendName, number]> = [];
    for (const name of ['map', 'plots', 'payments', 'moderation', 'contact'] as const) {
      for (let i = 0; i < counts[name]; i++) planned.push([name, await freePort()]);
    }
    const upstreams: Record<string, string> = { CONTACT_URL: 'http://127.0.0.1:9' };
    for (const name of Object.keys(UPSTREAM_KEY) as BackendName[]) {
      const ports = planned.filter(([n]) => n === name).map(([, port]) => `http://127.0.0.1:${port}`);
      if (ports.length) upstreams[UPSTREAM_KEY[name]] = ports.join(',');
    }
    const jobs = planned.map(([name, port]) => startServiceProcess(name, envFor(name), { port, readyTimeoutMs: 60_000 }));
    const gatewayJob = startServiceProcess('gateway', { ...envFor('gateway'), ...upstreams }, { readyTimeoutMs: 60_000 });
    const started = await Promise.allSettled(jobs);
    const gatewayStarted = await Promise.allSettled([gatewayJob]);
    for (const [i, result] of started.entries()) if (result.status === 'fulfilled') replicas[planned[i][0]].push(result.value);
    if (gatewayStarted[0].status === 'fulfilled') gateway = gatewayStarted[0].value;
    const failed = [...started, ...gatewayStarted].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    // The gateway checks its upstreams' /readyz every 2 s: let it see every replica ready before traffic.
    await new Promise((r) => setTimeout(r, 2100));
  } catch (error) {
    await cleanUp();
    throw error;
  }

  const land = new Set(
    (await db.query<{ x: number; y: number }>('SELECT "x", "y" FROM "map"."map_tiles" WHERE "is_land"')).map((r) => `${r.x},${r.y}`),
  );
  const stack: FaultStack = {
    gateway: gateway!,
    replicas,
    db,
    stream,
    natsUrl: options.nats.url,
    env,
    land,
    envFor,
    async restart(name, index = 0) {
      const old = replicas[name][index];
      await old.stop('SIGKILL');
      retired.push(old);
      const fresh = await startServiceProcess(name, envFor(name), { port: old.port, readyTimeoutMs: 60_000 });
      replicas[name][index] = fresh;
      return fresh;
    },
    logs() {
      return [...retired, ...all()].map((s) => s.output()).join('');
    },
    async stop() {
      await Promise.allSettled(all().map((s) => s.stop()));
      // FAULTS_LOG_DIR=dir keeps every process's output (one file per process) for a look afterwards.
      if (process.env.FAULTS_LOG_DIR) {
        await mkdir(process.env.FAULTS_LOG_DIR, { recursive: true });
        await Promise.all(
          [...retired, ...all()].map((s, i) => writeFile(path.join(process.env.FAULTS_LOG_DIR!, `${db.name}-${i}-${s.name}.log`), s.output())),
        );
      }
      await cleanUp();
    },
  };
  return stack;
}
