// The replica-wide caps: many addresses, each under its own cap, cannot together take every live-update stream or
// every connection of the public port. Real sockets from several loopback addresses.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureStream } from '@pixel-atlas/service-kit/nats';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import { eventually } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadEnv } from './env.ts';
import { openLiveStream, type LiveStream } from './testing/live-stream.ts';
import { openSlowConnection, type SlowConnection } from './testing/slow-connections.ts';

const LIVE_PER_CLIENT = 10;
const LIVE_TOTAL = 25;
const CONNECTIONS_PER_CLIENT = 15;
const CONNECTIONS_TOTAL = 40;

const bed = testBedPerFile({ bus: 'producer-stand-in' });
let gateway: FastifyInstance;
let base: string;
let port: number;

beforeAll(async () => {
  await ensureStream(bed.bus);
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-caps-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Pixel Atlas</title>');
  const nowhere = 'http://127.0.0.1:9';
  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      MAP_URL: nowhere,
      PLOTS_URL: nowhere,
      PAYMENTS_URL: nowhere,
      MODERATION_URL: nowhere,
      CONTACT_URL: nowhere,
      WEB_DIST_DIR: webDir,
      LIVE_MAX_PER_CLIENT: String(LIVE_PER_CLIENT),
      LIVE_MAX_TOTAL: String(LIVE_TOTAL),
      MAX_CONNECTIONS_PER_CLIENT: String(CONNECTIONS_PER_CLIENT),
      MAX_CONNECTIONS: String(CONNECTIONS_TOTAL),
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await gateway?.close();
});

const metric = async (name: string) => {
  const text = await gateway.metrics.metrics();
  return Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm'))?.[1]);
};

describe('replica-wide caps', () => {
  it('refuses a live-update stream past LIVE_MAX_TOTAL with 503 and Retry-After, whatever the address', async () => {
    const open: LiveStream[] = [];
    // 10 + 10 + 5 streams from three addresses, each within LIVE_MAX_PER_CLIENT: the replica's total is reached.
    for (const [address, count] of [
      ['127.0.3.1', 10],
      ['127.0.3.2', 10],
      ['127.0.3.3', 5],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const live = await openLiveStream(`${base}/api/live`, { localAddress: address });
        expect(live.response.statusCode).toBe(200);
        open.push(live);
      }
    }
    const refused = await openLiveStream(`${base}/api/live`, { localAddress: '127.0.3.4' });
    await refused.ended;
    expect(refused.response.statusCode).toBe(503);
    expect(Number(refused.response.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.received).error.code).toBe('NOT_READY');
    expect(await metric('live_update_refused_full_total')).toBe(1);

    // A closed stream frees a place for anyone.
    open.pop()!.close();
    const again = await eventually(async () => {
      const attempt = await openLiveStream(`${base}/api/live`, { localAddress: '127.0.3.4' });
      if (attempt.response.statusCode === 200) return attempt;
      attempt.close();
      return null;
    }, 5000);
    for (const live of [...open, again]) live.close();
    await eventually(async () => (await metric('gateway_connections')) === 0, 10_000);
  });

  it('refuses a connection past MAX_CONNECTIONS with 503 at once, and takes one again when another closes', async () => {
    const held: SlowConnection[] = [];
    // Two each from 20 addresses: every address is far under MAX_CONNECTIONS_PER_CLIENT.
    for (let i = 0; i < CONNECTIONS_TOTAL; i++) {
      held.push(await openSlowConnection({ port, localAddress: `127.0.4.${(i % 20) + 1}`, kind: 'headers', trickleMs: 200 }));
    }
    await eventually(async () => (await metric('gateway_connections')) === CONNECTIONS_TOTAL, 5000);
    const over = await openSlowConnection({ port, localAddress: '127.0.4.99', kind: 'headers' });
    expect((await over.closed).statusLine).toBe('HTTP/1.1 503 Service Unavailable');
    expect(await metric('gateway_connections_refused_total')).toBe(1);

    held.pop()!.destroy();
    await eventually(async () => (await metric('gateway_connections')) === CONNECTIONS_TOTAL - 1, 5000);
    const next = await openSlowConnection({ port, localAddress: '127.0.4.99', kind: 'headers' });
    await eventually(async () => (await metric('gateway_connections')) === CONNECTIONS_TOTAL, 5000);
    for (const connection of [...held, next]) connection.destroy();
  });
});
