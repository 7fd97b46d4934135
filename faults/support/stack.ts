import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BackendName, ServiceName } from '@pixel-atlas/contracts/services';
import type { ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { startProcessStack, type ProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { afterAll, beforeAll } from 'vitest';
import { oneAtATime } from './serial.ts';
import { TestPostgres } from './test-postgres.ts';

export type { BackendName };
export type FaultStack = ProcessStack;

/**
 * How long a process may take to answer /readyz. Generous: a whole stack (and with the long files three more)
 * starts at once on a shared machine, and map generates its world at first start.
 */
const READY_TIMEOUT_MS = Number(process.env.FAULTS_READY_TIMEOUT_MS ?? 180_000);

export interface FaultStackOptions {
  /** The test's own nats-server (authenticated: every service connects as its own user). */
  nats: TestNatsServer;
  /** A PostgreSQL server URL (the test's own cluster, or the machine's); a fresh database is made on it. */
  databaseServerUrl?: string;
  /** Replicas per service (default 1 each); 0 leaves a service out. */
  replicas?: Partial<Record<BackendName, number>>;
  /** Extra environment, for every process or per service. */
  env?: Record<string, string>;
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  logLevel?: string;
}

/** What every fault stack runs with: limits out of the way of the load, visitors told apart by X-Forwarded-For. */
const FAULT_ENV: Record<ServiceName, Record<string, string>> = {
  map: { MAP_AUTOGENERATE: 'true' },
  plots: {},
  payments: { CHECKOUT_RATE_LIMIT_MAX: '1000000', EXPIRY_SWEEP_INTERVAL_MS: '0' },
  moderation: {},
  contact: { CONTACT_RATE_LIMIT_MAX: '1000000' },
  gateway: { RATE_LIMIT_PER_MINUTE: '100000000', TRUST_PROXY: '1' },
};

/**
 * The system as production runs it (the test stack's processes), tuned for faults: the gateway trusts the proxy
 * header, as it would behind a load balancer, and serves a stub page instead of the built web app. Stacks of
 * parallel files start one at a time.
 */
export async function startFaultStack(options: FaultStackOptions): Promise<FaultStack> {
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-faults-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>faults</title>');
  const serviceEnv = Object.fromEntries(
    (Object.keys(FAULT_ENV) as ServiceName[]).map((name) => [name, { ...FAULT_ENV[name], ...options.serviceEnv?.[name] }]),
  );
  serviceEnv.gateway = { WEB_DIST_DIR: webDir, ...serviceEnv.gateway };
  try {
    const stack = await startProcessStack({
      nats: options.nats,
      databaseServerUrl: options.databaseServerUrl,
      replicas: options.replicas,
      env: { ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}), ...options.env },
      serviceEnv,
      readyTimeoutMs: READY_TIMEOUT_MS,
      startGate: (boot) => oneAtATime('stack-start', boot),
      // FAULTS_LOG_DIR=dir keeps every process's output for a look afterwards.
      logDir: process.env.FAULTS_LOG_DIR,
    });
    return {
      ...stack,
      async stop() {
        await stack.stop();
        await rm(webDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(webDir, { recursive: true, force: true });
    throw error;
  }
}

/** A backend's running replica, by index; throws when the stack was started with fewer. */
export function replica(stack: FaultStack, name: BackendName, index = 0): ServiceProcess {
  const found = stack.replicas[name][index];
  if (!found) throw new Error(`the stack runs ${stack.replicas[name].length} ${name} replica(s), not #${index}`);
  return found;
}

type FaultFileOptions = Omit<FaultStackOptions, 'nats' | 'databaseServerUrl'> & {
  ownPostgres?: boolean;
  hookTimeoutMs?: number;
  /** The file's broker: one nats-server unless given (`() => TestNatsCluster.start()`: three nodes in one cluster). */
  startNats?: () => Promise<TestNatsServer>;
};

export interface FaultRig {
  nats: TestNatsServer;
  /** This file's own PostgreSQL cluster (with `ownPostgres`). */
  postgres: TestPostgres;
  stack: FaultStack;
}

/**
 * The file's own nats-server (and, with `ownPostgres`, its own PostgreSQL cluster, so it can stop it) and a fault
 * stack on them, started before the file's tests and stopped after them. The fields are set once `beforeAll` ran.
 */
export function faultStackForFile(
  options: FaultFileOptions = {},
  /** Options only known once earlier hooks ran (a fake's port). */
  later: () => Partial<FaultStackOptions> = () => ({}),
): FaultRig {
  const { ownPostgres, hookTimeoutMs, startNats = () => TestNatsServer.start(), ...stackOptions } = options;
  const rig: Partial<FaultRig> = {};
  beforeAll(async () => {
    [rig.nats, rig.postgres] = await Promise.all([startNats(), ownPostgres ? TestPostgres.start() : undefined]);
    rig.stack = await startFaultStack({ ...stackOptions, ...later(), nats: rig.nats, databaseServerUrl: rig.postgres?.url });
  }, hookTimeoutMs);
  afterAll(async () => {
    await rig.stack?.stop();
    await rig.nats?.destroy();
    await rig.postgres?.destroy();
  }, hookTimeoutMs);
  return rig as FaultRig;
}
