// Static checks of docker-compose.yml, the Dockerfile and deploy/prometheus.yml against the services of
// @pixel-atlas/contracts/services (services-table.test.ts checks the folders under services/ against it).
// `npm run test:compose` (scripts/test-compose/) builds and runs them for real.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_NAMES, SERVICES } from '@pixel-atlas/contracts/services';
import { NATS_USER_NAMES, natsPasswordEnvName } from '@pixel-atlas/service-kit/nats-auth';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './lib/workspace.ts';
import { envText, interpolate } from './swarm-stack.ts';

type ComposeService = {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, unknown> } | string;
  environment?: Record<string, unknown> | string[];
  ports?: unknown[];
  expose?: unknown[];
  healthcheck?: { test?: string | string[] };
  depends_on?: Record<string, { condition?: string }> | string[];
  restart?: string;
  deploy?: { resources?: { limits?: Record<string, unknown> }; replicas?: number };
  container_name?: string;
  command?: string | string[];
  volumes?: string[];
  profiles?: string[];
};

const read = (p: string) => readFileSync(path.join(ROOT, p), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as { packageManager: string; devDependencies: Record<string, string> };
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
const services = SERVICE_NAMES.map((name) => ({ name, port: SERVICES[name].port, upstreamEnv: SERVICES[name].urlEnv }));
// events-setup: the one-shot step that declares the event stream (checked below), not a service of services/.
// backup: pgBackRest beside postgres (deploy/postgres), not a service of services/.
const INFRA = new Set(['postgres', 'backup', 'nats', 'prometheus', 'events-setup']);
// nats-1..3: the nats-cluster profile's nodes (checked below).
const NATS_CLUSTER_NODES = ['nats-1', 'nats-2', 'nats-3'];
const appServiceNames = Object.keys(compose.services).filter((n) => !INFRA.has(n) && !NATS_CLUSTER_NODES.includes(n));

/** Environment as a map; list form `KEY=value` / `KEY` becomes { KEY: value | null }. */
function envOf(svc: ComposeService): Record<string, unknown> {
  const env = svc.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(
    env.map((entry) => {
      const i = entry.indexOf('=');
      return i === -1 ? [entry, null] : [entry.slice(0, i), entry.slice(i + 1)];
    }),
  );
}
const commandText = (c: string | string[] | undefined) => (Array.isArray(c) ? c.join(' ') : (c ?? ''));
const dependsOn = (svc: ComposeService) =>
  Array.isArray(svc.depends_on) ? Object.fromEntries(svc.depends_on.map((n) => [n, {}])) : (svc.depends_on ?? {});

/** What an operator puts in .env for `docker compose up` (docs/operations.md). */
const OPERATOR_ENV: Record<string, string> = {
  INTERNAL_TOKEN: 'compose-test-internal-token-0123456789',
  // Plots refuses NODE_ENV=production without it: it signs the visitor cookie.
  VISITOR_COOKIE_SECRET: 'compose-test-visitor-cookie-secret-0123456789',
  STRIPE_SECRET_KEY: 'sk_test_compose',
  STRIPE_WEBHOOK_SECRET: 'whsec_compose',
  // The gateway refuses NODE_ENV=production without it: page links never come from the Host header.
  PUBLIC_ORIGIN: 'https://atlas.example.com',
  // One NATS password per service (the broker reads them too, deploy/nats-server.conf).
  ...Object.fromEntries(NATS_USER_NAMES.map((user) => [natsPasswordEnvName(user), `compose-nats-${user}`])),
};

/** The environment a container gets: interpolated values; keys without a value come from the operator's env or stay unset. */
function containerEnv(svc: ComposeService, vars: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(envOf(svc))) {
    if (value === null || value === undefined) {
      if (vars[key] !== undefined) out[key] = vars[key]!;
    } else {
      out[key] = interpolate(envText(value), vars);
    }
  }
  return out;
}

type EnvSchema = {
  shape?: Record<string, { safeParse(v: unknown): { success: boolean } }>;
  safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
};
async function envSchemaOf(name: string): Promise<EnvSchema> {
  const file = path.join(ROOT, 'services', name, 'src', 'env.ts');
  const { envSchema } = (await import(pathToFileURL(file).href)) as { envSchema?: EnvSchema };
  if (!envSchema) throw new Error(`services/${name}/src/env.ts exports no envSchema`);
  return envSchema;
}

/** Keys a service's env schema declares, and those it requires (no default, not optional). */
async function envKeys(name: string): Promise<{ required: string[]; all: string[] }> {
  const { shape } = await envSchemaOf(name);
  if (!shape) throw new Error(`services/${name}/src/env.ts: envSchema is not an object schema`);
  const all = Object.keys(shape);
  return { all, required: all.filter((key) => !shape[key]!.safeParse(undefined).success) };
}

/** Paths the service kit's health plugin serves. */
const healthSource = read('packages/service-kit/src/health.ts');

describe('docker-compose.yml: the app services are exactly the services of @pixel-atlas/contracts/services', () => {
  it('has a compose service for every service of the table', () => {
    const missing = services.map((s) => s.name).filter((n) => !compose.services[n]);
    expect(missing, `add these to docker-compose.yml: ${missing.join(', ')}`).toEqual([]);
  });

  it('declares no app service that the table lacks (its image could not start)', () => {
    const existing = new Set<string>(SERVICE_NAMES);
    const extra = appServiceNames.filter((n) => !existing.has(n));
    expect(extra, `docker-compose.yml has services that packages/contracts/src/services.ts lacks: ${extra.join(', ')}`).toEqual([]);
  });

  it('lets services scale: no container_name anywhere', () => {
    for (const [name, svc] of Object.entries(compose.services)) expect(svc.container_name, name).toBeUndefined();
  });

  it('publishes a port only on the gateway, and maps it to 8080 (PORT defaults to 8080)', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (name === 'gateway') continue;
      expect(svc.ports, `${name} must not publish a port`).toBeUndefined();
    }
    if (compose.services.gateway) {
      expect(compose.services.gateway.ports).toEqual(['${GATEWAY_BIND:-127.0.0.1}:${PORT:-8080}:8080']);
    }
  });

  it('requires INTERNAL_TOKEN instead of defaulting it', () => {
    expect(composeText).toMatch(/INTERNAL_TOKEN: \$\{INTERNAL_TOKEN:\?[^}]+\}/);
  });
});

describe.each(services)('service $name', (service) => {
  const svc: ComposeService = compose.services[service.name] ?? {};
  const env = envOf(svc);
  const build = typeof svc.build === 'string' ? { context: svc.build } : (svc.build ?? {});

  it('builds from the repository root with the one Dockerfile, SERVICE naming it, into an image Swarm can also pull', () => {
    expect(build.context).toBe('.');
    expect(build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
    expect(build.args?.SERVICE).toBe(service.name);
    expect(svc.image).toBe(`\${IMAGE_PREFIX:-pixel-atlas}/${service.name}:\${IMAGE_TAG:-latest}`);
    expect(
      existsSync(path.join(ROOT, 'services', service.name, 'Dockerfile')),
      'no per-service Dockerfile next to the one at the root',
    ).toBe(false);
  });

  it('listens on its port of the table (PORT, expose)', () => {
    expect(String(env.PORT), `docker-compose.yml ${service.name}: PORT`).toBe(String(service.port));
    expect((svc.expose ?? [String(service.port)]).map(String), `docker-compose.yml ${service.name}: expose`).toEqual([
      String(service.port),
    ]);
  });

  it('has a healthcheck on /readyz or /healthz of its own port, without curl (node fetch)', () => {
    const test = commandText(svc.healthcheck?.test);
    const match = test.match(/http:\/\/(?:127\.0\.0\.1|localhost):(\d+)(\/(?:readyz|healthz))/);
    expect(match, `healthcheck: ${test}`).not.toBeNull();
    expect(match![1]).toBe(String(service.port));
    expect(test).toMatch(/^CMD node -e .*fetch\(/);
    expect(healthSource).toContain(`'${match![2]}'`);
  });

  it('waits for healthy postgres and nats, restarts, and has resource limits', () => {
    const deps = dependsOn(svc) as Record<string, { condition?: string }>;
    expect(deps.postgres?.condition).toBe('service_healthy');
    expect(deps.nats?.condition).toBe('service_healthy');
    expect(['unless-stopped', 'always', 'on-failure']).toContain(svc.restart);
    expect(svc.deploy?.resources?.limits?.memory).toBeTruthy();
    expect(svc.deploy?.resources?.limits?.cpus).toBeTruthy();
  });

  it('gets the settings every service reads', () => {
    expect(String(env.DATABASE_URL)).toMatch(/^postgresql:\/\/.+@postgres:5432\//);
    expect(env.NATS_URL).toBe('${NATS_URL:-nats://nats:4222}');
    expect(env.NATS_STREAM_REPLICAS).toBe('${NATS_STREAM_REPLICAS:-1}');
    expect(String(env.INTERNAL_TOKEN)).toContain('${INTERNAL_TOKEN:?');
  });

  it('connects to NATS as its own user, with a password compose requires (no anonymous client gets in)', () => {
    const variable = natsPasswordEnvName(service.name);
    expect(env.NATS_USER).toBe(service.name);
    expect(String(env.NATS_PASSWORD)).toContain(`\${${variable}:?`);
    expect(String(envOf(compose.services.nats ?? {})[variable]), `the broker must get ${variable} too`).toContain(`\${${variable}:?`);
    expect(read('deploy/nats-server.conf')).toContain(`user: "${service.name}", password: $${variable}`);
  });

  it('sets every key its env schema requires (services/<name>/src/env.ts exports envSchema)', async () => {
    const keys = await envKeys(service.name);
    const missing = keys.required.filter((key) => env[key] === undefined || env[key] === null || env[key] === '');
    expect(missing, `required by services/${service.name}/src/env.ts but not set in docker-compose.yml`).toEqual([]);
  });

  it('gets a container environment its env schema accepts (with what an operator sets in .env)', async () => {
    const schema = await envSchemaOf(service.name);
    const result = schema.safeParse(containerEnv(svc, OPERATOR_ENV));
    const problems = (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(problems).toEqual([]);
  });

  it('refuses to start without INTERNAL_TOKEN (compose stops with a message)', () => {
    expect(() => containerEnv(svc, {})).toThrow(/INTERNAL_TOKEN/);
  });

  it('documents every env key it reads in docs/operations.md', async () => {
    const keys = await envKeys(service.name);
    const doc = read('docs/operations.md');
    expect(keys.all.filter((key) => !doc.includes(`\`${key}\``))).toEqual([]);
  });
});

describe('gateway', () => {
  const gateway = compose.services.gateway;
  const others = services.filter((s) => s.name !== 'gateway');

  it.runIf(gateway)('names every other service as an upstream by compose service name, and waits for it', () => {
    const env = envOf(gateway!);
    const deps = dependsOn(gateway!) as Record<string, { condition?: string }>;
    for (const s of others) {
      expect(env[s.upstreamEnv!], `docker-compose.yml gateway environment: ${s.upstreamEnv} (${s.name})`).toBe(
        `http://${s.name}:${s.port}`,
      );
      expect(deps[s.name]?.condition, `gateway depends_on ${s.name}`).toBe('service_healthy');
    }
  });

  it.runIf(gateway)('passes the product name to the web build', () => {
    const build = gateway!.build as { args?: Record<string, unknown> };
    expect(build.args?.SITE_NAME).toBe('${SITE_NAME:-Pixel Atlas}');
  });
});

describe('infrastructure services', () => {
  it('postgres:15 (with pgBackRest, deploy/postgres) with a volume and a pg_isready healthcheck', () => {
    const pg = compose.services.postgres!;
    expect(readFileSync(path.join(ROOT, 'deploy', 'postgres', 'Dockerfile'), 'utf8')).toMatch(/^ARG POSTGRES_IMAGE=postgres:15$/m);
    expect(pg.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(commandText(pg.healthcheck?.test)).toContain('pg_isready');
  });

  it('nats with JetStream on a persistent volume and a /healthz healthcheck on the monitoring port', () => {
    const nats = compose.services.nats!;
    expect(nats.image).toMatch(/^nats:2/);
    const cmd = commandText(nats.command);
    expect(cmd).toMatch(/(^| )(-js|--jetstream)( |$)/);
    expect(cmd).toMatch(/(-sd|--store_dir) \/data/);
    expect(cmd).toMatch(/(-m|--http_port) 8222/);
    expect(nats.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
    expect(commandText(nats.healthcheck?.test)).toContain('8222/healthz');
  });

  it('nats runs with the generated users of deploy/nats-server.conf, mounted read-only', () => {
    const nats = compose.services.nats!;
    const mount = nats.volumes?.find((v) => v.startsWith('./deploy/nats-server.conf:'));
    expect(mount).toMatch(/:ro$/);
    const target = mount!.split(':')[1]!;
    expect(commandText(nats.command)).toMatch(new RegExp(`(-c|--config) ${target.replaceAll('.', '\\.')}( |$)`));
  });

  it('events-setup declares the event stream as events-admin once nats is healthy, and every service waits for it to succeed', () => {
    const setup = compose.services['events-setup']!;
    expect(commandText(setup.command)).toContain('packages/service-kit/src/events-setup.ts');
    expect(setup.restart).toBe('no');
    const env = envOf(setup);
    expect(env.NATS_USER).toBe('events-admin');
    expect(String(env.NATS_PASSWORD)).toContain('${NATS_PASSWORD_EVENTS_ADMIN:?');
    expect(String(envOf(compose.services.nats!).NATS_PASSWORD_EVENTS_ADMIN)).toContain('${NATS_PASSWORD_EVENTS_ADMIN:?');
    expect(read('deploy/nats-server.conf')).toContain('user: "events-admin", password: $NATS_PASSWORD_EVENTS_ADMIN');
    expect((dependsOn(setup) as Record<string, { condition?: string }>).nats?.condition).toBe('service_healthy');
    for (const { name } of services.filter((s) => s.name !== 'gateway')) {
      const deps = dependsOn(compose.services[name]!) as Record<string, { condition?: string }>;
      expect(deps['events-setup']?.condition, name).toBe('service_completed_successfully');
    }
  });

  it('declares the named volumes it uses', () => {
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['postgres-data', 'nats-data']));
  });
});

describe('nats-cluster profile', () => {
  const nodes = NATS_CLUSTER_NODES.map((name) => ({ name, svc: compose.services[name] ?? {} }));
  const nats = compose.services.nats!;

  it("runs three nodes of the broker's image only with --profile nats-cluster, each with its own name and volume, the broker's users and passwords", () => {
    for (const { name, svc } of nodes) {
      expect(svc.profiles, name).toEqual(['nats-cluster']);
      expect(svc.image).toBe(nats.image);
      const cmd = commandText(svc.command);
      expect(cmd).toMatch(/^nats-server -c \/etc\/nats\/pixel-atlas\.conf -js -sd \/data -m 8222 /);
      expect(cmd).toContain(`--server_name ${name} --cluster_name pixel-atlas --cluster nats://0.0.0.0:6222 `);
      expect(svc.volumes).toEqual([`${name}-data:/data`, './deploy/nats-server.conf:/etc/nats/pixel-atlas.conf:ro']);
      expect(Object.keys(compose.volumes ?? {})).toContain(`${name}-data`);
      expect(envOf(svc)).toEqual(envOf(nats));
      expect(commandText(svc.healthcheck?.test)).toContain('8222/healthz');
      expect(svc.deploy?.resources?.limits?.memory).toBeTruthy();
    }
  });

  it('routes every node to the other two', () => {
    for (const { name, svc } of nodes) {
      const routes = /--routes (\S+)/.exec(commandText(svc.command))?.[1]?.split(',') ?? [];
      expect(routes.sort(), name).toEqual(NATS_CLUSTER_NODES.filter((n) => n !== name).map((n) => `nats-route://${n}:6222`));
    }
  });

  it('lets .env point every service and events-setup at the three nodes, the stream with three replicas', () => {
    const vars = { ...OPERATOR_ENV, NATS_URL: 'nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222', NATS_STREAM_REPLICAS: '3' };
    for (const name of [...SERVICE_NAMES, 'events-setup']) {
      const env = containerEnv(compose.services[name]!, vars);
      expect(env.NATS_URL, name).toBe(vars.NATS_URL);
      expect(env.NATS_STREAM_REPLICAS, name).toBe('3');
    }
  });
});

describe('monitoring profile', () => {
  const prom = compose.services.prometheus!;
  const config = parse(read('deploy/prometheus.yml')) as {
    scrape_configs: { job_name: string; metrics_path?: string; dns_sd_configs?: { names: string[]; type?: string; port: number }[] }[];
  };

  it('runs Prometheus only with --profile monitoring, configured from deploy/prometheus.yml', () => {
    expect(prom.profiles).toEqual(['monitoring']);
    expect(prom.volumes).toContain('./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
  });

  it('scrapes every app service by DNS service discovery (all replicas) on its operations port (METRICS_PORT), never its own port', () => {
    for (const { name, port } of services) {
      const metricsPort = Number(envOf(compose.services[name] ?? {}).METRICS_PORT);
      expect(metricsPort, `${name}: METRICS_PORT`).toBeGreaterThan(0);
      expect(metricsPort).not.toBe(port);
      const job = config.scrape_configs.find((j) => j.job_name === name);
      expect(job, `deploy/prometheus.yml has no job for ${name}`).toBeDefined();
      expect(job!.metrics_path ?? '/metrics').toBe('/metrics');
      expect(job!.dns_sd_configs?.[0], `deploy/prometheus.yml job ${name}`).toMatchObject({ names: [name], type: 'A', port: metricsPort });
    }
  });

  it('has no job for a service the table lacks', () => {
    const known = new Set<string>(['prometheus', ...SERVICE_NAMES]);
    const extra = config.scrape_configs.map((j) => j.job_name).filter((job) => !known.has(job));
    expect(extra, `deploy/prometheus.yml jobs that packages/contracts/src/services.ts lacks: ${extra.join(', ')}`).toEqual([]);
  });
});

describe('Dockerfile (one for every service, ARG SERVICE)', () => {
  const text = read('Dockerfile');
  const instructions = text.split('\n').filter((l) => /^[A-Z]+\s/.test(l));
  const runtime = text.slice(text.lastIndexOf('\nFROM '));

  it('is multi-stage, on Node 24 (the current LTS) by default, with the npm of packageManager', () => {
    expect(instructions.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(text).toContain(`npm install --global ${rootPackage.packageManager}`);
  });

  it('leaves SERVICE out of the dependency stages, so every image shares their layers', () => {
    const beforeFirstServiceArg = text.slice(0, text.indexOf('ARG SERVICE'));
    expect(beforeFirstServiceArg).toMatch(/npm ci --omit=dev --workspace=services/);
    expect(beforeFirstServiceArg).toMatch(/npm run generate --if-present --workspace=services/);
    expect(beforeFirstServiceArg).not.toContain('${SERVICE}');
  });

  it('runs as a non-root user', () => {
    const users = instructions.filter((l) => l.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.split(/\s+/)[1]).not.toMatch(/^(root|0)(:.*)?$/);
  });

  it('runs services/$SERVICE/src/server.ts with node --import tsx, tsx pinned like the root devDependency', () => {
    expect(runtime).toContain('WORKDIR /app/services/${SERVICE}');
    expect(runtime).toContain('CMD ["node", "--import", "tsx", "src/server.ts"]');
    expect(text).toContain(`tsx@${rootPackage.devDependencies.tsx!.replace(/^[~^]/, '')}`);
    for (const s of services) expect(existsSync(path.join(ROOT, 'services', s.name, 'src/server.ts'))).toBe(true);
  });

  it('copies the service source and its generated Prisma client, and the web build the gateway serves', () => {
    expect(runtime).toContain('COPY services/${SERVICE} services/${SERVICE}');
    expect(runtime).toContain('COPY --from=build /app/services/${SERVICE}/src/generated services/${SERVICE}/src/generated');
    expect(text).toMatch(/if \[ "\$SERVICE" = gateway \]; then .*npm run build --workspace=web/);
    expect(runtime).toContain('COPY --from=build /app/web/dist web/dist');
    // The gateway renders plot, user and region pages with the web app's server bundle.
    expect(runtime).toContain('COPY --from=build /app/web/dist-server web/dist-server');
    expect(runtime).toContain('ENV WEB_DIST_DIR=/app/web/dist');
  });
});

describe('.dockerignore', () => {
  it('keeps host dependencies, build output and local data out of the build context', () => {
    const lines = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '.data', '.git', '**/dist', '**/src/generated', '.env']) expect(lines).toContain(entry);
  });
});
