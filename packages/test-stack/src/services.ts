import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from '@pixel-atlas/service-kit/service-process';
import { freePort } from '@pixel-atlas/service-kit/free-port';
import { BACKEND_NAMES, SERVICES, type BackendName, type ServiceName } from '@pixel-atlas/contracts/services';

/** Where a left-out backend's upstream points: the discard port, so the gateway refuses its routes quickly. */
const NOWHERE = 'http://127.0.0.1:9';

export interface ServicesOptions {
  /** Environment of every process (database, NATS, internal token…), then of each service. */
  env: Record<string, string>;
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Replicas per backend (default 1 each); 0 leaves a backend out. */
  replicas?: Partial<Record<BackendName, number>>;
  /** Fixed ports: the gateway's, and each backend's first replica's. The others get spare ones. */
  ports?: Partial<Record<ServiceName, number>>;
  /** How long a process may take to answer /readyz. */
  readyTimeoutMs?: number;
  /** Runs the boot, e.g. under a lock so the stacks of parallel test files start one at a time. */
  startGate?: <T>(boot: () => Promise<T>) => Promise<T>;
  /** Each line a process prints, as it prints it (logs() then has none of it): npm start's console. */
  onLine?: (name: ServiceName, line: string) => void;
  /** Every process in its own process group, so a terminal's Ctrl-C reaches only the caller. */
  detached?: boolean;
  /** Cancels the start: processes still booting get SIGTERM, ready ones too, and startServices fails. */
  signal?: AbortSignal;
}

export interface Services {
  /** The gateway's base URL: the site as a visitor sees it. */
  url: string;
  gateway: ServiceProcess;
  /** Every running replica, by backend. */
  replicas: Record<BackendName, ServiceProcess[]>;
  envFor(name: ServiceName): Record<string, string>;
  /** Every running process, the gateway last. */
  processes(): ServiceProcess[];
  /** Every process started, replaced ones first. */
  history(): ServiceProcess[];
  /** SIGKILLs replica `index` of `name` and starts a new process on its port (the gateway's list stays valid). */
  restart(name: BackendName, index?: number): Promise<ServiceProcess>;
  /** Every process's log output (stopped ones included), for failure messages and log assertions. */
  logs(): string;
}

/**
 * A process that exits while booting is started again, as an orchestrator would: on a starved machine map's
 * first-start world generation can outlast its transaction and the process exits (the next start generates it).
 * A process that never becomes ready is not retried.
 */
async function startWithRetry(name: ServiceName, env: Record<string, string>, options: ServiceProcessOptions) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceProcess(name, env, options);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('exited with')) throw error;
    }
  }
}

/** Resolves once the gateway's last health check of every replica in `replicas` found it ready (its metrics say so). */
async function gatewaySeesReady(gateway: ServiceProcess, replicas: string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const text = await fetch(`${gateway.metricsUrl}/metrics`).then((r) => r.text());
    const ready = new Set(
      text
        .split('\n')
        .filter((line) => line.startsWith('gateway_upstream_replica_ready{') && line.endsWith(' 1'))
        .map((line) => /replica="([^"]+)"/.exec(line)?.[1]),
    );
    if (replicas.every((r) => ready.has(r))) return;
    if (Date.now() > deadline) throw new Error(`the gateway did not see ${replicas.filter((r) => !ready.has(r)).join(', ')} ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Every backend replica as its own process (`src/server.ts`, as production runs it) and the gateway in front with
 * comma-separated upstream lists. Every process starts at once (ports are chosen first, so the gateway's upstream
 * lists are known): no service needs another to boot, and replicas of one service share migrations under an
 * advisory lock. When one fails to start, the others are killed and the error thrown.
 */
export async function startServices(options: ServicesOptions): Promise<Services> {
  const envFor = (name: ServiceName) => ({ ...options.env, ...options.serviceEnv?.[name] });
  const processOptions = (name: ServiceName, port?: number): ServiceProcessOptions => ({
    port,
    readyTimeoutMs: options.readyTimeoutMs,
    detached: options.detached,
    signal: options.signal,
    onLine: options.onLine && ((line) => options.onLine!(name, line)),
  });
  const replicas = Object.fromEntries(BACKEND_NAMES.map((name) => [name, [] as ServiceProcess[]])) as Record<BackendName, ServiceProcess[]>;
  const retired: ServiceProcess[] = [];
  let gateway: ServiceProcess | undefined;
  const processes = () => [...Object.values(replicas).flat(), ...(gateway ? [gateway] : [])];

  try {
    const planned: Array<{ name: BackendName; port: number }> = [];
    for (const name of BACKEND_NAMES) {
      for (let i = 0; i < (options.replicas?.[name] ?? 1); i++) {
        planned.push({ name, port: (i === 0 ? options.ports?.[name] : undefined) ?? (await freePort()) });
      }
    }
    const upstreams: Record<string, string> = {};
    // Each backend's replicas in the gateway's variable for it (CONTACT_URL…: a comma-separated list of base URLs).
    for (const name of BACKEND_NAMES) {
      const urls = planned.filter((p) => p.name === name).map((p) => `http://127.0.0.1:${p.port}`);
      upstreams[SERVICES[name].urlEnv] = urls.length ? urls.join(',') : NOWHERE;
    }
    const startAll = async () => {
      const backends = planned.map(({ name, port }) => startWithRetry(name, envFor(name), processOptions(name, port)));
      const front = startWithRetry('gateway', { ...envFor('gateway'), ...upstreams }, processOptions('gateway', options.ports?.gateway));
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
    // The gateway booted beside its upstreams and checks their /readyz every 2 s: wait until it has seen each ready.
    await gatewaySeesReady(
      gateway!,
      planned.map(({ port }) => `http://127.0.0.1:${port}`),
      options.readyTimeoutMs ?? 90_000,
      options.signal,
    );
  } catch (error) {
    // A cancelled start is stopped as gracefully as it was asked for; a failed one is torn down.
    await Promise.allSettled(processes().map((s) => s.stop(options.signal?.aborted ? 'SIGTERM' : 'SIGKILL')));
    throw error;
  }

  const front = gateway!;
  const history = () => [...retired, ...processes()];
  return {
    url: front.url,
    gateway: front,
    replicas,
    envFor,
    processes,
    history,
    async restart(name, index = 0) {
      const old = replicas[name][index];
      if (!old) throw new Error(`${name} has no replica ${index}`);
      await old.stop('SIGKILL');
      retired.push(old);
      const fresh = await startServiceProcess(name, envFor(name), processOptions(name, old.port));
      replicas[name][index] = fresh;
      return fresh;
    },
    logs() {
      return history()
        .map((s) => s.output())
        .join('');
    },
  };
}
