// One compose project of docker-compose.yml (with the monitoring profile, Prometheus on a loopback port, and later the
// nats-cluster profile), driven through docker-compose against podman's API, and what the test reads from its containers.
import { PODMAN, run, runAsync } from './host.ts';

export interface ComposeContainer {
  id: string;
  name: string;
  service: string;
  running: boolean;
  health: 'healthy' | 'unhealthy' | 'starting' | 'none';
}

export class ComposeStack {
  /** The profiles every command runs with (the test adds nats-cluster for its last step). */
  readonly profiles = ['monitoring'];

  constructor(
    readonly root: string,
    readonly project: string,
    readonly envFile: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  compose(args: string[]): Promise<string> {
    return runAsync(
      'docker-compose',
      [
        '-p',
        this.project,
        '--env-file',
        this.envFile,
        '-f',
        'docker-compose.yml',
        '-f',
        'deploy/compose.prometheus-port.yml',
        ...this.profiles.flatMap((profile) => ['--profile', profile]),
        ...args,
      ],
      { cwd: this.root, env: this.env },
    );
  }

  /**
   * `up -d`, tried again (twice at most, and said so) when podman's API loses a race with a container whose process
   * just ended (`read /proc/<pid>/cgroup: no such process`): compose's up is idempotent, and an operator would run it again.
   */
  async up(args: string[], log: (line: string) => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.compose(['up', '-d', '--no-build', ...args]);
        return;
      } catch (error) {
        const message = (error as Error).message;
        if (attempt >= 3 || !/\/proc\/\d+\/\S+: no such process/.test(message)) throw error;
        log(`docker-compose up hit podman's API race (${/read \/proc\S+ \S+: no such process/.exec(message)?.[0]}); running up again`);
      }
    }
  }

  /**
   * `down -v`, then whatever is left of the project removed by podman itself: a container that crash-looped can be
   * restarted by its restart policy while compose stops the others, and would keep the network and volumes alive.
   * Returns what had to be forced.
   */
  async tearDown(): Promise<string[]> {
    const forced: string[] = [];
    try {
      await this.compose(['down', '-v', '--remove-orphans', '--timeout', '10']);
    } catch (error) {
      forced.push(`compose down failed (${(error as Error).message.split('\n').at(-2) ?? ''})`);
    }
    const label = `label=com.docker.compose.project=${this.project}`;
    const list = (args: string[]) =>
      run(PODMAN[0], [...PODMAN.slice(1), ...args], { quiet: true })
        .split('\n')
        .filter(Boolean);
    const containers = list(['ps', '-aq', '--filter', label]);
    if (containers.length) {
      run(PODMAN[0], [...PODMAN.slice(1), 'rm', '-f', '-t', '0', ...containers], { quiet: true });
      forced.push(`${containers.length} container(s)`);
    }
    const volumes = list(['volume', 'ls', '-q']).filter((v) => v.startsWith(`${this.project}_`));
    if (volumes.length) {
      run(PODMAN[0], [...PODMAN.slice(1), 'volume', 'rm', '-f', ...volumes], { quiet: true });
      forced.push(`volumes ${volumes.join(', ')}`);
    }
    const networks = list(['network', 'ls', '--format', '{{.Name}}']).filter((n) => n.startsWith(`${this.project}_`));
    if (networks.length) {
      run(PODMAN[0], [...PODMAN.slice(1), 'network', 'rm', '-f', ...networks], { quiet: true });
      forced.push(`networks ${networks.join(', ')}`);
    }
    return forced;
  }

  containers(): ComposeContainer[] {
    const text = run(
      PODMAN[0],
      [...PODMAN.slice(1), 'ps', '-a', '--format', 'json', '--filter', `label=com.docker.compose.project=${this.project}`],
      { quiet: true },
    );
    const rows = JSON.parse(text || '[]') as Array<{
      Id: string;
      Names: string[];
      Labels: Record<string, string>;
      State: string;
      Status: string;
    }>;
    return rows
      .map((row) => ({
        id: row.Id,
        name: row.Names[0] ?? row.Id,
        // Every container listed carries the project's label, and compose labels each with its service too.
        service: row.Labels['com.docker.compose.service'] ?? '',
        running: row.State === 'running',
        health: (/\((healthy|unhealthy|starting)\)/.exec(row.Status)?.[1] ?? 'none') as ComposeContainer['health'],
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  }

  replicas(service: string): ComposeContainer[] {
    return this.containers().filter((c) => c.service === service && c.running);
  }

  /** Waits until each service has `counts[service]` healthy running containers; returns the seconds it took. */
  async waitHealthy(counts: Record<string, number>, timeoutMs: number): Promise<number> {
    const started = Date.now();
    let last = '';
    while (Date.now() - started < timeoutMs) {
      const all = this.containers().filter((c) => c.running);
      const pending = Object.entries(counts).flatMap(([service, n]) => {
        const ready = all.filter((c) => c.service === service && c.health === 'healthy').length;
        return ready === n ? [] : [`${service} ${ready}/${n}`];
      });
      if (!pending.length) return (Date.now() - started) / 1000;
      last = pending.join(', ');
      await new Promise((r) => setTimeout(r, 1000));
    }
    throw new Error(
      `not healthy after ${timeoutMs / 1000} s: ${last}\n${this.containers()
        .map((c) => `${c.name} ${c.running ? 'running' : 'stopped'} ${c.health}`)
        .join('\n')}`,
    );
  }

  exec(container: string, command: string[], input?: string): string {
    return run(PODMAN[0], [...PODMAN.slice(1), 'exec', ...(input === undefined ? [] : ['-i']), container, ...command], {
      input,
      quiet: true,
    });
  }

  /** Rows of a query, run with psql inside the postgres container (PostgreSQL publishes no port). */
  sql<T extends Record<string, string>>(query: string): T[] {
    const [postgres] = this.replicas('postgres');
    if (!postgres) throw new Error('no running postgres container to query');
    const out = this.exec(
      postgres.id,
      [
        'psql',
        '-U',
        this.env.POSTGRES_USER ?? 'pixel_atlas',
        '-d',
        this.env.POSTGRES_DB ?? 'pixel_atlas',
        '-v',
        'ON_ERROR_STOP=1',
        '-X',
        '-q',
        '--csv',
        '-f',
        '-',
      ],
      query,
    );
    const [header, ...lines] = out.trim().split('\n').filter(Boolean);
    if (!header) return [];
    const keys = header.split(',');
    return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [keys[i], v])) as T);
  }

  /** What a one-row `SELECT count(…) AS n` query answers. */
  count(query: string): number {
    const [row] = this.sql<{ n: string }>(query);
    if (!row) throw new Error(`no row from: ${query}`);
    return Number(row.n);
  }

  /** A replica's HTTP requests by route, from its operations port (METRICS_PORT, reachable only inside). */
  requestsByRoute(container: string): Map<string, number> {
    const text = this.exec(container, [
      'node',
      '-e',
      "fetch('http://127.0.0.1:9100/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))",
    ]);
    const out = new Map<string, number>();
    for (const line of text.split('\n')) {
      const [, labels, value] = /^http_requests_total\{([^}]*)\} (\S+)/.exec(line) ?? [];
      if (labels === undefined || value === undefined) continue;
      const route = /route="([^"]*)"/.exec(labels)?.[1] ?? '?';
      out.set(route, (out.get(route) ?? 0) + Number(value));
    }
    return out;
  }
}
