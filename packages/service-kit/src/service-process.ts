import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from './free-port.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface ServiceProcess {
  name: string;
  url: string;
  port: number;
  /** The operations port (METRICS_PORT): `/metrics` and detailed `/readyz`. */
  metricsUrl: string;
  child: ChildProcess;
  /** What the process printed (JSON log lines), for assertions and failure messages. */
  output(): string;
  /** SIGTERM by default (graceful); SIGKILL to simulate a crash. Resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServiceProcessOptions {
  port?: number;
  readyTimeoutMs?: number;
  /**
   * Gets each line the process prints as it prints it, and output() keeps none of them: a console that runs for
   * days (npm start) must not hold every log line in memory.
   */
  onLine?: (line: string) => void;
  /** Its own process group: a Ctrl-C in the terminal reaches only the parent, which stops the services in its order. */
  detached?: boolean;
  /** Stops waiting for readiness: the process gets SIGTERM, and the start fails once it has exited. */
  signal?: AbortSignal;
}

/**
 * Runs a service exactly as production does (its own process, `src/server.ts`), on a spare port, and
 * waits until `/readyz` answers 200. Tests use it to talk to other services over real HTTP and NATS
 * and to kill them mid-flight. It listens on 127.0.0.1 unless env.HOST says otherwise. env.SERVICE_NODE_ARGS adds
 * Node flags NODE_OPTIONS refuses (benchmarks profile a service with `--cpu-prof --cpu-prof-dir=<dir>`).
 */
export async function startServiceProcess(
  name: string,
  env: Record<string, string>,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const metricsPort = Number(env.METRICS_PORT ?? (await freePort()));
  const nodeArgs = (env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(repoRoot, 'services', name, 'src', 'server.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), METRICS_PORT: String(metricsPort), HOST: env.HOST ?? '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const { onLine } = options;
  for (const stream of [child.stdout, child.stderr]) {
    if (onLine) readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
    else stream.on('data', (chunk) => (output += chunk));
  }
  // Never outlive the test process, however it ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const service: ServiceProcess = {
    name,
    url,
    port,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  // Generous: on a busy 2-core CI machine a tsx-compiled service can take well over 30 s to boot.
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (options.signal?.aborted) {
      await service.stop();
      throw new Error(`${name}: start cancelled`);
    }
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return service;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await service.stop('SIGKILL');
  throw new Error(`${name} was not ready within ${readyTimeoutMs} ms:\n${output}`);
}
