// Renders a Docker Swarm stack file from docker-compose.yml, so Swarm runs the same images and settings on several
// hosts (docs/scaling.md):
//   node --import tsx scripts/swarm-stack.ts --env-file .env [--without postgres,nats] > pixel-atlas-stack.yml
//   docker stack deploy -c pixel-atlas-stack.yml pixel-atlas
// `docker stack deploy` reads only part of the compose format and no .env, hence this: variables substituted as
// compose does, no build/profiles/depends_on/restart, files mounted from the checkout become Swarm configs, app services
// resolve to every task (dnsrr) as the gateway's upstream pools and Prometheus' DNS discovery expect, and the stateful
// services stay on the node labelled pixel-atlas.data=true with their volumes. scripts/swarm-stack.test.ts checks it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, stringify } from 'yaml';
import { ROOT } from './lib/workspace.ts';

export const SWARM_REPLICAS: Record<string, number> = { gateway: 2, plots: 3, payments: 2 };
// backup (pgBackRest) shares postgres' volumes: it runs beside it, and goes with it when PostgreSQL is managed.
export const STATEFUL_SERVICES = ['postgres', 'backup', 'nats', 'prometheus'];
export const DATA_NODE_CONSTRAINT = 'node.labels.pixel-atlas.data == true';

/** Compose's variable interpolation: $$, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
type Vars = Record<string, string | undefined>;

/** The parts of a compose service this renders. */
interface ComposeService {
  image?: string;
  command?: unknown;
  environment?: Record<string, unknown>;
  volumes?: string[];
  ports?: unknown[];
  deploy?: { resources?: unknown };
  [key: string]: unknown;
}

interface SwarmService {
  image?: string;
  command?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  configs?: Array<{ source: string; target: string | undefined; mode: number }>;
  ports?: Array<{ target: number; published: number; protocol: 'tcp'; mode: 'host' }>;
  deploy: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SwarmStack {
  version: string;
  services: Record<string, SwarmService>;
  volumes: Record<string, unknown>;
  configs?: Record<string, { file: string }>;
}

export function interpolate(text: string, vars: Vars): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-|:\?|\?)([^}]*))?\}/g, (match, name: string, op?: string, arg?: string) => {
    if (match === '$$') return '$';
    const value = vars[name];
    // With an operator the third group always matched (maybe empty).
    if (op === ':-') return value ? value : (arg ?? '');
    if (op === '-') return value ?? arg ?? '';
    if (op === ':?' || op === '?') {
      if (op === ':?' ? !value : value === undefined) throw new Error(`${name}: ${arg}`);
      return value ?? '';
    }
    return value ?? '';
  });
}

/** A compose environment value (a YAML string, number or boolean) as the text the container sees. */
export function envText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A service's environment with the operator's values: keys compose leaves empty come from `vars` or are left out. */
function environmentOf(service: ComposeService, vars: Vars): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.environment ?? {})) {
    if (value === null || value === undefined) {
      if (vars[key] !== undefined && vars[key] !== '') out[key] = vars[key];
    } else {
      out[key] = envText(value);
    }
  }
  return out;
}

/**
 * `composeText`: docker-compose.yml; `vars`: the operator's environment (.env over the shell's); `without`: services to
 * leave out (e.g. postgres and nats once they are managed).
 */
export function swarmStack(composeText: string, vars: Vars, { without = [] as string[] } = {}): SwarmStack {
  const compose = parse(interpolate(composeText, vars), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes?: Record<string, unknown>;
  };
  const configs: Record<string, { file: string }> = {};
  const stack: SwarmStack = { version: '3.8', services: {}, volumes: {}, configs };
  for (const [name, service] of Object.entries(compose.services)) {
    // The nats-cluster profile's nodes run a cluster on one compose host; a Swarm runs NATS as docs/scaling.md says.
    if ((service.profiles as string[] | undefined)?.includes('nats-cluster')) continue;
    if (without.includes(name) || (name === 'backup' && without.includes('postgres'))) continue;
    const stateful = STATEFUL_SERVICES.includes(name);
    const out: SwarmService = { image: service.image, deploy: {} };
    if (service.command) out.command = service.command;
    const environment = environmentOf(service, vars);
    if (Object.keys(environment).length) out.environment = environment;
    for (const key of ['init', 'stop_grace_period', 'healthcheck', 'logging']) if (service[key] !== undefined) out[key] = service[key];
    const volumes: string[] = [];
    for (const mount of service.volumes ?? []) {
      const [source = '', target] = mount.split(':');
      if (source.startsWith('.') || source.startsWith('/')) {
        const config = `${name}-${path.basename(source).replace(/[^A-Za-z0-9]+/g, '-')}`;
        configs[config] = { file: path.resolve(ROOT, source) };
        (out.configs ??= []).push({ source: config, target, mode: 0o444 });
      } else {
        stack.volumes[source] = compose.volumes?.[source] ?? {};
        volumes.push(mount);
      }
    }
    if (volumes.length) out.volumes = volumes;
    out.deploy = {
      ...(service.deploy?.resources ? { resources: service.deploy.resources } : {}),
      replicas: stateful ? 1 : (SWARM_REPLICAS[name] ?? 1),
      restart_policy: { condition: 'on-failure', delay: '5s' },
      ...(stateful
        ? { placement: { constraints: [DATA_NODE_CONSTRAINT] }, update_config: { order: 'stop-first' } }
        : { endpoint_mode: 'dnsrr', update_config: { order: 'start-first', parallelism: 1, failure_action: 'rollback' } }),
    };
    if (name === 'gateway') {
      // dnsrr has no routing mesh: the gateway publishes on the hosts it runs on, one per node, for the load balancer.
      const [published, target] = String(service.ports?.[0]).split(':').slice(-2);
      out.ports = [{ target: Number(target), published: Number(published), protocol: 'tcp', mode: 'host' }];
      out.deploy.placement = { max_replicas_per_node: 1 };
    }
    stack.services[name] = out;
  }
  if (!Object.keys(configs).length) delete stack.configs;
  return escapeDollars(stack) as SwarmStack;
}

/** `docker stack deploy` interpolates the file again: what is left of `$` (shell variables in commands) is escaped. */
function escapeDollars(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('$', '$$$$');
  if (Array.isArray(value)) return value.map(escapeDollars);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeDollars(v)]));
  return value;
}

/** KEY=value lines (comments and blank lines skipped; surrounding quotes removed), as compose reads .env. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1]) out[match[1]] = (match[2] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const envFile = option('--env-file');
  const vars: Vars = { ...process.env, ...(envFile ? parseEnvFile(readFileSync(envFile, 'utf8')) : {}) };
  try {
    const stack = swarmStack(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), vars, {
      without: (option('--without') ?? '').split(',').filter(Boolean),
    });
    process.stdout.write(
      `# Generated by scripts/swarm-stack.ts from docker-compose.yml; deploy: docker stack deploy -c <this file> pixel-atlas\n${stringify(stack)}`,
    );
  } catch (error) {
    console.error(`swarm-stack: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
