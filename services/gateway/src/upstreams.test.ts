import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE, ServiceCallFailed, UpstreamPool, serviceCaller } from './upstreams.ts';

describe('ROUTE_TABLE', () => {
  it("routes every public path of the services' API (the checked-in OpenAPI document) to its service", () => {
    const document = JSON.parse(readFileSync(new URL('../../../packages/api-types/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, unknown>;
    };
    // The gateway's own routes: admin sign-in, sessions and passkeys.
    const gatewayOwn = /^\/api\/admin\/(login|logout|me|passkey)/;
    const prefixes = Object.values(ROUTE_TABLE).flat();
    const unrouted = Object.keys(document.paths).filter(
      (path) => !gatewayOwn.test(path) && !prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)),
    );
    expect(unrouted).toEqual([]);
  });
});

describe('UpstreamPool', () => {
  it('spreads requests round-robin over replicas and skips unhealthy ones', () => {
    const pool = new UpstreamPool('plots', ['http://10.0.0.1:3001', 'http://10.0.0.2:3001', 'http://10.0.0.3:3001']);
    expect([pool.pick(), pool.pick(), pool.pick(), pool.pick()]).toEqual([
      'http://10.0.0.1:3001',
      'http://10.0.0.2:3001',
      'http://10.0.0.3:3001',
      'http://10.0.0.1:3001',
    ]);
    pool.markUnhealthy('http://10.0.0.2:3001');
    const picks = new Set(Array.from({ length: 6 }, () => pool.pick()));
    expect(picks).toEqual(new Set(['http://10.0.0.1:3001', 'http://10.0.0.3:3001']));
  });

  it('avoids the replica that just failed, and still answers when every replica is unhealthy', () => {
    const pool = new UpstreamPool('plots', ['http://10.0.0.1:3001', 'http://10.0.0.2:3001']);
    for (let i = 0; i < 4; i++) expect(pool.pick('http://10.0.0.1:3001')).toBe('http://10.0.0.2:3001');
    pool.markUnhealthy('http://10.0.0.1:3001');
    pool.markUnhealthy('http://10.0.0.2:3001');
    expect(['http://10.0.0.1:3001', 'http://10.0.0.2:3001']).toContain(pool.pick());
  });

  it('expands a compose service name into every replica it resolves to', async () => {
    const pool = new UpstreamPool('plots', ['http://plots:3001', 'http://10.9.9.9:3001'], async (host) =>
      host === 'plots' ? ['172.18.0.5', '172.18.0.6', '172.18.0.7'] : [],
    );
    await pool.refreshMembers();
    expect(pool.members).toEqual(['http://172.18.0.5:3001', 'http://172.18.0.6:3001', 'http://172.18.0.7:3001', 'http://10.9.9.9:3001']);
  });

  it('keeps the name when it cannot be resolved', async () => {
    const pool = new UpstreamPool('plots', ['http://plots:3001'], async () => {
      throw new Error('ENOTFOUND');
    });
    await pool.refreshMembers();
    expect(pool.members).toEqual(['http://plots:3001']);
  });
});

describe('serviceCaller (the gateway calling a service itself)', () => {
  it('sends the internal token and the request id to the next replica, and names a replica that does not answer in time', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers);
      if (request.url === '/slow') return; // never answers
      response.setHeader('content-type', 'application/json').end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const call = serviceCaller(new Map([['plots', new UpstreamPool('plots', [base])]]), { internalToken: 'token-1', timeoutMs: 300 });
      const { response, replica } = await call('plots', { path: '/api/plots/x', requestId: 'req-1' });
      expect(await response.json()).toEqual({ ok: true });
      expect(replica).toBe(base);
      expect(seen[0]).toMatchObject({ 'x-internal-token': 'token-1', 'x-request-id': 'req-1' });

      const slow = await call('plots', { path: '/slow' }).catch((error: unknown) => error);
      expect(slow).toBeInstanceOf(ServiceCallFailed);
      expect(slow).toMatchObject({ service: 'plots', replica: base });
      await expect(call('map', { path: '/x' })).rejects.toThrow('no map replica is configured');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
