// The copies of @pixel-atlas/contracts/services that cannot import it, checked against it: the workspaces under
// services/, each service's port and schema constants, turbo.json, the API types' build, the web dev server's proxy,
// docs/operations.md.
// docker-compose.yml and deploy/prometheus.yml: compose.test.ts; deploy/nats-server.conf: service-kit's nats-auth.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '@pixel-atlas/contracts/services';
import { describe, expect, it } from 'vitest';
import { ROOT, workspaceDirs } from './lib/workspace.ts';

const TABLE = 'packages/contracts/src/services.ts';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const packageName = (name: string) => `@pixel-atlas/${name}-service`;
const serviceFolders = workspaceDirs(ROOT)
  .filter((dir) => path.dirname(dir) === path.join(ROOT, 'services'))
  .map((dir) => path.basename(dir));

describe(`the services of ${TABLE}`, () => {
  it('are exactly the workspaces under services/', () => {
    const extra = serviceFolders.filter((name) => !(SERVICE_NAMES as string[]).includes(name));
    const missing = SERVICE_NAMES.filter((name) => !serviceFolders.includes(name));
    expect(extra, `workspaces services/<name> that ${TABLE} lacks: ${extra.join(', ')}`).toEqual([]);
    expect(missing, `services of ${TABLE} with no workspace services/<name> (package.json workspaces): ${missing.join(', ')}`).toEqual([]);
  });
});

describe.each(SERVICE_NAMES)('service %s', (name: ServiceName) => {
  const dir = path.join('services', name);

  it(`is the package ${packageName('<name>')} with src/server.ts and an ./openapi export`, () => {
    expect(existsSync(path.join(ROOT, dir, 'package.json')), `${dir}/package.json`).toBe(true);
    const pkg = JSON.parse(read(path.join(dir, 'package.json'))) as { name: string; exports?: Record<string, string> };
    expect(pkg.name, `${dir}/package.json: name`).toBe(packageName(name));
    expect(existsSync(path.join(ROOT, dir, 'src', 'server.ts')), `${dir}/src/server.ts`).toBe(true);
    expect(pkg.exports?.['./openapi'], `${dir}/package.json: exports ./openapi`).toBe('./src/openapi.ts');
  });

  it("listens on the table's port unless PORT says otherwise (src/env.ts)", async () => {
    const { envSchema } = (await import(pathToFileURL(path.join(ROOT, dir, 'src', 'env.ts')).href)) as {
      envSchema: { shape: { PORT: { parse(value: unknown): unknown } } };
    };
    expect(envSchema.shape.PORT.parse(undefined), `${dir}/src/env.ts: PORT default`).toBe(SERVICES[name].port);
  });

  it("treats an unset NODE_ENV as production, the kit's one rule (src/env.ts spreads baseEnvShape)", async () => {
    const { envSchema } = (await import(pathToFileURL(path.join(ROOT, dir, 'src', 'env.ts')).href)) as {
      envSchema: { shape: { NODE_ENV: { parse(value: unknown): unknown } } };
    };
    expect(envSchema.shape.NODE_ENV.parse(undefined), `${dir}/src/env.ts: NODE_ENV default`).toBe('production');
  });

  it("keeps its tables in the table's schema (src/db.ts SCHEMA)", async () => {
    const { SCHEMA } = (await import(pathToFileURL(path.join(ROOT, dir, 'src', 'db.ts')).href)) as { SCHEMA: string };
    expect(SCHEMA, `${dir}/src/db.ts: SCHEMA`).toBe(SERVICES[name].schema);
  });

  it('is generated before the API types (turbo.json) and described in them (packages/api-types)', () => {
    const turbo = JSON.parse(read('turbo.json')) as { tasks: Record<string, { dependsOn?: string[] }> };
    expect(turbo.tasks['@pixel-atlas/api-types#generate']?.dependsOn, `turbo.json: @pixel-atlas/api-types#generate dependsOn`).toContain(
      `${packageName(name)}#generate`,
    );
    expect(read('packages/api-types/src/build-api-types.ts'), 'packages/api-types/src/build-api-types.ts imports').toContain(
      `from '${packageName(name)}/openapi'`,
    );
  });

  it('has its port in docs/operations.md (the PORT row)', () => {
    const row = read('docs/operations.md')
      .split('\n')
      .find((line) => line.startsWith('| `PORT`'));
    expect(row, 'docs/operations.md: the `PORT` row').toContain(`${name} ${SERVICES[name].port}`);
  });
});

describe('the web dev server (web/vite.config.ts, which loads no TypeScript package)', () => {
  it("proxies /api to the gateway's port", () => {
    expect(read('web/vite.config.ts'), 'web/vite.config.ts: server.proxy /api target').toContain(
      `'/api': { target: 'http://127.0.0.1:${SERVICES.gateway.port}'`,
    );
  });
});

describe('the API types', () => {
  it('wait for no package that is not a service of the table (turbo.json)', () => {
    const turbo = JSON.parse(read('turbo.json')) as { tasks: Record<string, { dependsOn?: string[] }> };
    const known = new Set(SERVICE_NAMES.map((name) => `${packageName(name)}#generate`));
    const extra = (turbo.tasks['@pixel-atlas/api-types#generate']?.dependsOn ?? []).filter((task) => !known.has(task));
    expect(extra, `turbo.json: @pixel-atlas/api-types#generate dependsOn what ${TABLE} lacks`).toEqual([]);
  });

  it('describe no service that the table lacks (packages/api-types/src/build-api-types.ts)', () => {
    const imported = [...read('packages/api-types/src/build-api-types.ts').matchAll(/from '@pixel-atlas\/([a-z0-9-]+)-service\/openapi'/g)];
    const extra = imported.map((match) => match[1]!).filter((name) => !(SERVICE_NAMES as string[]).includes(name));
    expect(imported.length).toBeGreaterThan(0);
    expect(extra, `packages/api-types/src/build-api-types.ts imports services that ${TABLE} lacks`).toEqual([]);
  });
});
