// The container engine on this machine: podman with runc (crun fails on cgroups here), its Docker-compatible API
// socket for Debian's docker-compose, and healthchecks run on a timer (podman schedules them with systemd, which
// these machines do not run as PID 1).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PODMAN = ['podman', '--runtime', 'runc'] as const;
const HOST_PACKAGES = { podman: 'podman', runc: 'runc', debootstrap: 'debootstrap', 'docker-compose': 'docker-compose' } as const;
const CONTAINERS_CONF = '/etc/containers/containers.conf';
// What the issue found necessary: no default ulimits or pids limit (runc refuses them here), cgroupfs (no systemd).
const CONTAINERS_CONF_TEXT = `[containers]
default_ulimits = []
pids_limit = 0

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
`;

export function run(
  command: string,
  args: readonly string[],
  options: { input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): string {
  try {
    return execFileSync(command, args, {
      input: options.input,
      cwd: options.cwd,
      env: options.env ?? process.env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', options.quiet ? 'pipe' : 'inherit'],
    });
  } catch (error) {
    const e = error as { status?: number; stderr?: string; stdout?: string };
    throw new Error(
      `${command} ${args.join(' ')} exited ${e.status}${e.stderr ? `:\n${e.stderr}` : ''}${e.stdout ? `\n${e.stdout.slice(-4000)}` : ''}`,
      { cause: error },
    );
  }
}

/** Like run, without blocking the event loop (the health ticker must go on while docker-compose waits for health). */
export function runAsync(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr}${stdout.slice(-4000)}`)),
    );
  });
}

/** Runs and streams the output (long builds), failing on a non-zero exit. */
export function runStreaming(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const take = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) tail.push(line);
      tail.splice(0, Math.max(0, tail.length - 60));
      if (process.env.TEST_COMPOSE_VERBOSE) process.stderr.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}; last lines:\n${tail.join('\n')}`)),
    );
  });
}

/** `podman build` on the host's network from local images only (nothing is pulled), its output streamed. */
export function podmanBuild(args: readonly string[]): Promise<void> {
  return runStreaming(PODMAN[0], [...PODMAN.slice(1), 'build', '--network', 'host', '--pull=never', ...args]);
}

const onPath = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Installs podman, runc, debootstrap and docker-compose from Debian when missing, and the engine settings when absent. */
export function prepareHost(log: (line: string) => void): void {
  const missing = Object.entries(HOST_PACKAGES)
    .filter(([tool]) => !onPath(tool))
    .map(([, pkg]) => pkg);
  if (missing.length) {
    if (process.getuid?.() !== 0)
      throw new Error(`missing ${missing.join(', ')}: install them (apt-get install -y ${missing.join(' ')}) or run as root`);
    log(`installing ${missing.join(', ')} with apt-get`);
    run('apt-get', ['update', '-q'], { quiet: true });
    run('apt-get', ['install', '-y', '-q', ...missing], { quiet: true, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (!existsSync(CONTAINERS_CONF)) {
    if (process.getuid?.() !== 0) throw new Error(`${CONTAINERS_CONF} is missing; write it as root:\n${CONTAINERS_CONF_TEXT}`);
    mkdirSync(path.dirname(CONTAINERS_CONF), { recursive: true });
    writeFileSync(CONTAINERS_CONF, CONTAINERS_CONF_TEXT);
    log(`wrote ${CONTAINERS_CONF} (runc, cgroupfs, no default ulimits or pids limit)`);
  }
}

/** podman's Docker-compatible API on a socket of our own, for docker-compose (DOCKER_HOST). */
export async function startApiService(socketPath: string): Promise<{ dockerHost: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(PODMAN[0], [...PODMAN.slice(1), 'system', 'service', '--time=0', `unix://${socketPath}`], {
    stdio: 'ignore',
  });
  const dockerHost = `unix://${socketPath}`;
  const deadline = Date.now() + 20_000;
  while (!existsSync(socketPath)) {
    if (child.exitCode !== null) throw new Error(`podman system service exited ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`podman system service: no socket at ${socketPath} after 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    dockerHost,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Go's duration text as podman prints it ("10s", "1m30s", "500ms") in milliseconds. */
function durationMs(text: string): number {
  let total = 0;
  for (const [, n, unit] of text.matchAll(/([\d.]+)(ms|h|m|s)/g))
    total += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  return total;
}

/**
 * Runs the healthcheck of every running container of this compose project at the container's own interval, as
 * podman's systemd timers would: docker-compose's `condition: service_healthy` and `podman ps` read the status it
 * records (retries and start period are podman's own).
 */
export function startHealthTicker(project: string): { stop(): Promise<void> } {
  let stopped = false;
  const due = new Map<string, number>();
  const interval = new Map<string, number>();
  const podman = (args: string[]) =>
    new Promise<string>((resolve) => {
      const child = spawn(PODMAN[0], [...PODMAN.slice(1), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('close', () => resolve(out));
      child.on('error', () => resolve(''));
    });
  const loop = (async () => {
    while (!stopped) {
      const ids = (await podman(['ps', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${project}`]))
        .split('\n')
        .filter(Boolean);
      const now = Date.now();
      await Promise.all(
        ids.map(async (id) => {
          if (!interval.has(id))
            interval.set(id, durationMs((await podman(['inspect', '--format', '{{.Config.Healthcheck.Interval}}', id])).trim()));
          const every = interval.get(id)!;
          if (!every || (due.get(id) ?? 0) > now) return;
          due.set(id, now + every);
          await podman(['healthcheck', 'run', id]);
        }),
      );
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
