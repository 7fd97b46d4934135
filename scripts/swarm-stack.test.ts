// Structural checks of the Swarm stack scripts/swarm-stack.ts renders from docker-compose.yml (docs/scaling.md):
// no Swarm runs here, so this is what keeps `docker stack deploy` of the same images honest.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NATS_USER_NAMES, natsPasswordEnvName } from '@pixel-atlas/service-kit/nats-auth';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './lib/workspace.ts';
import { DATA_NODE_CONSTRAINT, STATEFUL_SERVICES, SWARM_REPLICAS, parseEnvFile, swarmStack } from './swarm-stack.ts';

type StackService = {
  image: string;
  environment?: Record<string, string>;
  command?: string[];
  healthcheck?: { test: string[] };
  volumes?: string[];
  configs?: Array<{ source: string; target: string }>;
  ports?: Array<{ target: number; published: number; mode: string }>;
  deploy: {
    replicas: number;
    endpoint_mode?: string;
    placement?: { constraints?: string[]; max_replicas_per_node?: number };
    update_config?: { order: string };
    restart_policy?: { condition: string };
    resources?: { limits?: Record<string, string> };
  };
  [key: string]: unknown;
};
type Stack = {
  version: string;
  services: Record<string, StackService>;
  volumes: Record<string, unknown>;
  configs?: Record<string, { file: string }>;
};

const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, { image: string; environment?: Record<string, unknown>; profiles?: string[] }>;
};
// The nats-cluster profile's nodes are a cluster on one compose host: a Swarm leaves them out (docs/scaling.md has its own).
const NATS_CLUSTER_NODES = Object.keys(compose.services).filter((n) => compose.services[n]!.profiles?.includes('nats-cluster'));
for (const node of NATS_CLUSTER_NODES) delete compose.services[node];
const OPERATOR_ENV = parseEnvFile(
  [
    'INTERNAL_TOKEN=swarm-test-internal-token-0123456789',
    'VISITOR_COOKIE_SECRET="swarm-test-visitor-cookie-secret-0123456789"',
    '# a comment',
    'PUBLIC_ORIGIN=https://atlas.example.com',
    'STRIPE_SECRET_KEY=sk_live_swarm',
    'STRIPE_WEBHOOK_SECRET=whsec_swarm',
    'IMAGE_PREFIX=registry.example.com/pixel-atlas',
    'IMAGE_TAG=2026-11-25',
    ...NATS_USER_NAMES.map((user) => `${natsPasswordEnvName(user)}=swarm-nats-${user}`),
  ].join('\n'),
);
const stack = swarmStack(composeText, OPERATOR_ENV) as Stack;
// events-setup: the one-shot step that declares the event stream, on contact's image (checked below).
const appServices = Object.keys(compose.services).filter((n) => !STATEFUL_SERVICES.includes(n) && n !== 'events-setup');
// Service keys `docker stack deploy` (compose file format 3.8) understands and honours.
const SWARM_SERVICE_KEYS = new Set([
  'image',
  'command',
  'environment',
  'init',
  'stop_grace_period',
  'healthcheck',
  'logging',
  'volumes',
  'configs',
  'ports',
  'deploy',
]);

describe('the Swarm stack rendered from docker-compose.yml', () => {
  it('reads .env as compose does (quotes removed, comments skipped)', () => {
    expect(OPERATOR_ENV.VISITOR_COOKIE_SECRET).toBe('swarm-test-visitor-cookie-secret-0123456789');
    expect(Object.keys(OPERATOR_ENV)).not.toContain('#');
  });

  it('leaves out the nats-cluster profile (its three nodes)', () => {
    expect(NATS_CLUSTER_NODES).toEqual(['nats-1', 'nats-2', 'nats-3']);
    for (const node of NATS_CLUSTER_NODES) expect(stack.services[node]).toBeUndefined();
  });

  it('has every compose service, each on the image compose builds (from the operator registry), fully interpolated', () => {
    expect(Object.keys(stack.services).sort()).toEqual(Object.keys(compose.services).sort());
    for (const name of appServices) expect(stack.services[name]!.image).toBe(`registry.example.com/pixel-atlas/${name}:2026-11-25`);
    // Left: the shell's own variables in healthchecks, escaped for stack deploy's second interpolation.
    expect(JSON.stringify(stack)).not.toMatch(/(?<!\$)\$\{/);
    expect(stack.services.postgres!.healthcheck?.test.join(' ')).toContain('$${POSTGRES_USER}');
    expect(stack.version).toMatch(/^3\.\d+$/);
  });

  it('uses only what docker stack deploy honours (no build, profiles, depends_on, restart, expose, container_name)', () => {
    for (const [name, service] of Object.entries(stack.services)) {
      expect(
        Object.keys(service).filter((k) => !SWARM_SERVICE_KEYS.has(k)),
        name,
      ).toEqual([]);
    }
  });

  it('keeps every setting compose gives a service, with the operator values', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const given = Object.entries(service.environment ?? {})
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k]) => k);
      expect(Object.keys(stack.services[name]!.environment ?? {}), name).toEqual(expect.arrayContaining(given));
    }
    expect(stack.services.plots!.environment).toMatchObject({
      NATS_USER: 'plots',
      NATS_PASSWORD: 'swarm-nats-plots',
      NATS_URL: 'nats://nats:4222',
    });
    expect(stack.services.payments!.environment?.STRIPE_SECRET_KEY).toBe('sk_live_swarm');
    expect(stack.services.gateway!.environment?.PUBLIC_ORIGIN).toBe('https://atlas.example.com');
    expect(stack.services.plots!.environment).not.toHaveProperty('AVATAR_MAX_INPUT_PIXELS'); // unset: the service default
  });

  it('runs app services replicated, rolling (start-first), restarted on failure, their names resolving to every task', () => {
    for (const name of appServices) {
      const { deploy, healthcheck } = stack.services[name]!;
      expect(deploy.replicas, name).toBe(SWARM_REPLICAS[name] ?? 1);
      expect(deploy.endpoint_mode, name).toBe('dnsrr');
      expect(deploy.update_config?.order).toBe('start-first');
      expect(deploy.restart_policy?.condition).toBe('on-failure');
      expect(deploy.resources?.limits?.memory).toBeTruthy();
      expect(healthcheck?.test.join(' ')).toMatch(/\/readyz/);
    }
    expect(stack.services.plots!.deploy.replicas).toBeGreaterThan(1);
  });

  it("runs events-setup once on contact's image, restarted only on failure (Swarm has no depends_on: services re-create a missing stream themselves)", () => {
    const setup = stack.services['events-setup']!;
    expect(setup.image).toBe('registry.example.com/pixel-atlas/contact:2026-11-25');
    expect(setup.deploy.replicas).toBe(1);
    expect(setup.deploy.restart_policy?.condition).toBe('on-failure');
    expect(setup.environment).toMatchObject({ NATS_USER: 'events-admin', NATS_PASSWORD: 'swarm-nats-events-admin' });
  });

  it('publishes only the gateway, on the hosts it runs on (one per node), for the load balancer', () => {
    for (const name of Object.keys(stack.services).filter((n) => n !== 'gateway'))
      expect(stack.services[name]!.ports, name).toBeUndefined();
    expect(stack.services.gateway!.ports).toEqual([{ target: 8080, published: 8080, protocol: 'tcp', mode: 'host' }]);
    expect(stack.services.gateway!.deploy.placement?.max_replicas_per_node).toBe(1);
  });

  it('pins PostgreSQL, NATS and Prometheus to the data node, on declared named volumes', () => {
    for (const name of STATEFUL_SERVICES) {
      const service = stack.services[name]!;
      expect(service.deploy.placement?.constraints, name).toEqual([DATA_NODE_CONSTRAINT]);
      expect(service.deploy.replicas).toBe(1);
      for (const mount of service.volumes ?? []) expect(Object.keys(stack.volumes)).toContain(mount.split(':')[0]);
    }
    expect(stack.services.postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data');
  });

  it('turns the files mounted from the checkout into Swarm configs that exist, at the paths the commands read', () => {
    const configs = Object.entries(stack.configs ?? {});
    expect(configs.length).toBe(3);
    for (const [, { file }] of configs) expect(existsSync(file), file).toBe(true);
    const nats = stack.services.nats!;
    expect(nats.volumes?.some((v) => v.includes('nats-server.conf'))).toBeFalsy();
    const natsConfig = nats.configs?.find((c) => c.target === '/etc/nats/pixel-atlas.conf');
    expect(stack.configs?.[natsConfig!.source]?.file).toBe(path.join(ROOT, 'deploy/nats-server.conf'));
    expect(nats.command?.join(' ')).toContain('-c /etc/nats/pixel-atlas.conf');
    expect(stack.services.prometheus!.configs?.map((c) => c.target).sort()).toEqual([
      '/etc/prometheus/alerts.yml',
      '/etc/prometheus/prometheus.yml',
    ]);
  });

  it('leaves out managed services on request, keeping the URLs the operator gives', () => {
    const managed = swarmStack(composeText, OPERATOR_ENV, { without: ['postgres', 'nats'] }) as Stack;
    expect(managed.services.postgres).toBeUndefined();
    expect(managed.services.nats).toBeUndefined();
    expect(Object.keys(managed.volumes)).not.toContain('postgres-data');
    expect(managed.services.plots).toBeDefined();
  });

  it('refuses to render without the secrets compose requires', () => {
    expect(() => swarmStack(composeText, {})).toThrow(/INTERNAL_TOKEN|NATS_PASSWORD/);
  });
});
