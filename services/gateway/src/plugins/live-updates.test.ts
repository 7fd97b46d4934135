// The live map's stream across replicas: ids every replica agrees on (JetStream sequences), a browser that comes back
// on another replica with Last-Event-ID gets exactly what it missed, and a browser that stops reading is cut off.
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureStream } from '@pixel-atlas/service-kit/nats';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { openLiveStream, type LiveStream } from '../testing/live-stream.ts';

const bed = testBedPerFile({ bus: 'producer-stand-in' });
const gateways: FastifyInstance[] = [];
let webDir: string;

beforeAll(async () => {
  await ensureStream(bed.bus);
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-live-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Pixel Atlas</title>');
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
});

/** A gateway replica on the file's database and stream, listening; its upstreams are nowhere (only /api/live is used). */
async function startGateway(env: Record<string, string> = {}): Promise<string> {
  const nowhere = 'http://127.0.0.1:9';
  const gateway = await buildApp(
    loadEnv({
      ...bed.env,
      MAP_URL: nowhere,
      PLOTS_URL: nowhere,
      PAYMENTS_URL: nowhere,
      MODERATION_URL: nowhere,
      CONTACT_URL: nowhere,
      WEB_DIST_DIR: webDir,
      ...env,
    }),
  );
  gateways.push(gateway);
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(gateway.server.address() as { port: number }).port}`;
}

const publish = async (type: string, data: object) =>
  (
    await bed.bus.js.publish(
      bed.bus.subject(type),
      JSON.stringify({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data }),
    )
  ).seq;

const claimed = (plotId: string, visible = true) => publish('plots.plot.claimed', { plotId, visible });

/** Opens a stream and waits for its `ready`. */
async function connect(base: string, lastEventId?: string): Promise<LiveStream> {
  const live = await openLiveStream(`${base}/api/live`, lastEventId === undefined ? {} : { lastEventId });
  await live.readUntil('event: ready');
  return live;
}

/** Waits until replica `base` has read the stream up to the event that changes `plotId` for `reason`. */
async function heardBy(base: string, reason: string, plotId: string) {
  const watcher = await connect(base);
  // A watcher that connects after the event hears it only through replay: resume from the start of the stream.
  watcher.close();
  const from = await connect(base, watcher.lastEventId!.replace(/-\d+-\d+$/, '-0-0'));
  await from.readUntil(`"reason":"${reason}","plotId":"${plotId}"`);
  from.close();
}

const changes = (live: LiveStream) => live.events.filter((e) => e.event !== 'ready').map((e) => JSON.parse(e.data) as object);

describe('live updates across replicas', () => {
  it('resumes a browser on another replica with exactly the events it missed, in order, then follows live ones', async () => {
    const [a, b] = [await startGateway(), await startGateway()];
    const browser = await connect(a);
    expect(browser.events[0]).toMatchObject({ event: 'ready', data: '{"resumed":false}' });
    // The head the stream writes itself carries the security headers every response has.
    expect(browser.response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(browser.response.headers['content-security-policy']).toContain("default-src 'self'");
    await claimed('p1');
    await browser.readUntil('"plotId":"p1"');
    const seenUpTo = browser.lastEventId!;
    expect(seenUpTo).toMatch(/^[0-9a-z]+-\d+-\d+$/);
    browser.close();

    // While the browser is away (its replica died): a claim, a hidden claim, a new layout, a removal.
    await claimed('p2');
    await claimed('p3-under-review', false);
    await publish('map.layout.generated', {});
    await publish('plots.plot.removed', { plotId: 'p1' });
    await heardBy(b, 'removed', 'p1');

    const back = await connect(b, seenUpTo);
    expect(back.events[0]).toMatchObject({ event: 'ready', data: '{"resumed":true}', id: seenUpTo });
    await back.readUntil('"reason":"removed"');
    expect(changes(back)).toEqual([{ reason: 'claimed', plotId: 'p2' }, { reason: 'generated' }, { reason: 'removed', plotId: 'p1' }]);
    // Ids only move forward, and both replicas give the same id for the same event.
    const ids = back.events.map((e) => e.id!.split('-').slice(1).map(Number));
    for (let i = 1; i < ids.length; i++) expect(ids[i]![0]! + ids[i]![1]!).toBeGreaterThan(ids[i - 1]![0]! + ids[i - 1]![1]!);

    await claimed('p4');
    await back.readUntil('"plotId":"p4"');
    expect(changes(back).filter((c) => JSON.stringify(c).includes('p4'))).toHaveLength(1);
    const onA = await connect(a, seenUpTo);
    await onA.readUntil('"plotId":"p4"');
    expect(onA.events.map((e) => e.id)).toEqual(back.events.map((e) => e.id));
    onA.close();

    // Coming back once more with everything heard: nothing is sent again.
    back.close();
    const again = await connect(a, back.lastEventId);
    expect(again.events[0]!.data).toBe('{"resumed":true}');
    await claimed('p5');
    await again.readUntil('"plotId":"p5"');
    expect(changes(again)).toEqual([{ reason: 'claimed', plotId: 'p5' }]);
    again.close();
  });

  it('resumes browsers on a replica started after they were cut off, from what it read back at start', async () => {
    const a = await startGateway();
    const browser = await connect(a);
    await claimed('q1');
    await browser.readUntil('"plotId":"q1"');
    browser.close();
    await claimed('q2');
    const late = await startGateway();
    const back = await connect(late, browser.lastEventId);
    await back.readUntil('"plotId":"q2"');
    expect(back.events[0]!.data).toBe('{"resumed":true}');
    expect(changes(back)).toEqual([{ reason: 'claimed', plotId: 'q2' }]);
    back.close();
  });

  it('tells a browser to refetch when its id cannot be resumed: unknown, from another stream, or older than the replica keeps', async () => {
    const small = await startGateway({ LIVE_REPLAY_EVENTS: '2' });
    for (const id of ['not-an-id', 'zzzz-1-1']) {
      const live = await connect(small, id);
      expect(live.events[0]!.data).toBe('{"resumed":false}');
      live.close();
    }
    const browser = await connect(small);
    const watcher = await connect(small);
    await claimed('r1');
    await browser.readUntil('"plotId":"r1"');
    browser.close();
    for (const plotId of ['r2', 'r3', 'r4']) await claimed(plotId);
    await watcher.readUntil('"plotId":"r4"');
    watcher.close();
    const back = await connect(small, browser.lastEventId);
    expect(back.events[0]!.data).toBe('{"resumed":false}');
    expect(changes(back)).toEqual([]);
    // It stands where the replica stands: the next event comes live, once.
    await claimed('r5');
    await back.readUntil('"plotId":"r5"');
    expect(changes(back)).toEqual([{ reason: 'claimed', plotId: 'r5' }]);
    back.close();
  });
});

describe('a browser that stops reading', () => {
  it('is cut off once it leaves LIVE_MAX_UNREAD_BYTES unread, while a reading browser gets every event', { timeout: 60_000 }, async () => {
    const base = await startGateway({ LIVE_MAX_UNREAD_BYTES: String(256 * 1024) });
    const reader = await connect(base);
    const { port } = new URL(base);
    const stalled = net.connect(Number(port), '127.0.0.1');
    let stalledClosed = false;
    stalled.on('close', () => (stalledClosed = true));
    stalled.on('error', () => undefined);
    // Its first bytes (the head, then `ready`) are written once the replica counts it among its clients.
    const answered = new Promise<void>((resolve) =>
      stalled.once('data', () => {
        stalled.pause();
        resolve();
      }),
    );
    stalled.write('GET /api/live HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n');
    await answered;

    // Far more than the socket buffers between the two hold (~4 MB here), so the replica's own buffer fills.
    const padding = 'x'.repeat(20_000);
    for (let i = 0; i < 400; i++) await claimed(`${i}-${padding}`);
    await reader.readUntil('"plotId":"399-', 30_000);
    expect(changes(reader)).toHaveLength(400);

    const metrics = await (gateways.at(-1)!.metrics as { metrics(): Promise<string> }).metrics();
    expect(metrics).toMatch(/live_update_slow_clients_dropped_total\{[^}]*\} 1\b/);
    expect(metrics).toMatch(/live_update_clients\{[^}]*\} 1\b/);
    // Reading again, it drains what the socket buffers held and then finds the connection closed.
    stalled.resume();
    await vi.waitFor(() => expect(stalledClosed).toBe(true), { timeout: 10_000 });
    reader.close();
  });
});
