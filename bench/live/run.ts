/**
 * `npm run bench:live` — the live map under a crowd: many browsers holding `GET /api/live` while plots are claimed
 * through the real flow (checkout, test payment, claim), every service a real process, the gateway in front.
 *
 *   BENCH_LIVE_VIEWERS=10000  BENCH_LIVE_CLAIMS=20 (claims heard per phase)  BENCH_LIVE_PER_ADDRESS=20 (the
 *   gateway's LIVE_MAX_PER_CLIENT: viewers are spread over 127.1.x.y source addresses so none passes the cap)
 *   BENCH_LIVE_GATEWAY_NODE_ARGS: Node flags for the first gateway, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 *
 * Phase 1, one gateway: claim → event on every connection (p50/p99/max over every viewer and claim, measured from
 * the claim answer to the viewer's receipt), gateway memory per connection (RSS before and after the viewers
 * connect), gateway CPU per broadcast (CPU over the claims with the viewers connected, minus the same number of
 * claims with none, per claim).
 * Phase 2, reconnect storm: two gateways, the viewers split between them; one gateway is SIGKILLed while plots are
 * claimed; its viewers reconnect to the other after the server's `retry:` delay, with Last-Event-ID when the stream
 * gave ids. Reported: viewers that received every claimed plot's event exactly once, events missed and duplicated,
 * and the time from the kill until each reconnected viewer had heard everything claimed before it reconnected.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { processCpuMs } from '@pixel-atlas/test-stack/process-cpu';
import { startProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { buyMany, claimPlot, pool, sleep, spots, type PaidSession } from '../../faults/support/traffic.ts';
import { Viewer, viewerAddress } from './viewer.ts';

const VIEWERS = Number(process.env.BENCH_LIVE_VIEWERS ?? 10_000);
const CLAIMS = Number(process.env.BENCH_LIVE_CLAIMS ?? 20);
const PER_ADDRESS = Number(process.env.BENCH_LIVE_PER_ADDRESS ?? 20);
const STORM_CLAIMS = CLAIMS * 2;
const CONNECT_PARALLEL = 200;

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}
const cpuMs = (pid: number) => processCpuMs(pid) ?? 0;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : 'n/a');

async function connectAll(viewers: Viewer[], port: (v: Viewer, i: number) => number, onClose?: (v: Viewer) => void) {
  await pool(viewers, CONNECT_PARALLEL, (viewer, i) => viewer.connect(port(viewer, i), onClose && (() => onClose(viewer))));
}

/** Claims `sessions` one after the other, `gapMs` apart; returns plot id → when its claim was answered. */
async function claimAll(site: { gateway: { url: string } }, sessions: PaidSession[], gapMs: number, onClaimed?: (i: number) => void) {
  const answered = new Map<string, number>();
  for (const [i, session] of sessions.entries()) {
    const response = await claimPlot(site, session);
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`claim at ${session.x},${session.y}: ${response.status} ${JSON.stringify(response.body)}`);
    answered.set(response.body.plot.id, performance.now());
    onClaimed?.(i);
    await sleep(gapMs);
  }
  return answered;
}

async function main() {
  const started = performance.now();
  console.log(`bench:live on ${os.cpus().length} CPU(s), Node ${process.version}: ${VIEWERS} viewers, ${CLAIMS} claims per phase\n`);
  const stack = await startProcessStack({
    replicas: { contact: 0 },
    readyTimeoutMs: 240_000,
    env: { LOG_LEVEL: 'warn' },
    serviceEnv: {
      map: { MAP_AUTOGENERATE: 'true' },
      payments: { CHECKOUT_RATE_LIMIT_MAX: '1000000', EXPIRY_SWEEP_INTERVAL_MS: '0' },
      gateway: {
        RATE_LIMIT_PER_MINUTE: '100000000',
        TRUST_PROXY: '1',
        LIVE_MAX_PER_CLIENT: String(PER_ADDRESS),
        SERVICE_NODE_ARGS: process.env.BENCH_LIVE_GATEWAY_NODE_ARGS ?? '',
      },
    },
  });
  const extraGateways: ServiceProcess[] = [];
  const viewers: Viewer[] = [];
  try {
    const site = { gateway: { url: stack.url } };
    const places = spots(stack, 1, CLAIMS * 2 + STORM_CLAIMS);
    const sessions = await buyMany(site, 'basic', places, 8);
    console.log(`stack up and ${sessions.length} sessions paid in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    const gatewayPid = stack.gateway.child.pid!;

    // ---- phase 1: one gateway
    let cpu = cpuMs(gatewayPid);
    await claimAll(site, sessions.slice(0, CLAIMS), 100);
    const cpuWithout = cpuMs(gatewayPid) - cpu;

    const rssBefore = rssBytes(gatewayPid);
    const port = stack.gateway.port;
    for (let i = 0; i < VIEWERS; i++) viewers.push(new Viewer(viewerAddress(i, PER_ADDRESS)));
    const connectStarted = performance.now();
    await connectAll(viewers, () => port);
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    await sleep(1000);
    const rssAfter = rssBytes(gatewayPid);

    cpu = cpuMs(gatewayPid);
    const answered = await claimAll(site, sessions.slice(CLAIMS, CLAIMS * 2), 100);
    await sleep(2000);
    const cpuWith = cpuMs(gatewayPid) - cpu;
    const latencies: number[] = [];
    let missed = 0;
    for (const viewer of viewers) {
      for (const [plotId, at] of answered) {
        const heard = viewer.heard.get(plotId);
        if (heard === undefined) missed += 1;
        else latencies.push(Math.max(0, heard - at));
      }
    }
    latencies.sort((a, b) => a - b);
    console.log('Phase 1: one gateway');
    console.log(`  ${VIEWERS} viewers connected in ${connectSeconds.toFixed(1)} s from ${Math.ceil(VIEWERS / PER_ADDRESS)} addresses`);
    console.log(
      `  claim → event on every connection: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1) ?? NaN)}`,
    );
    console.log(`  events missed: ${missed} of ${VIEWERS * CLAIMS}; duplicates: ${viewers.reduce((n, v) => n + v.duplicates, 0)}`);
    console.log(
      `  gateway memory per connection: ${((rssAfter - rssBefore) / VIEWERS / 1024).toFixed(1)} KB (RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MiB)`,
    );
    console.log(
      `  gateway CPU per broadcast: ${((cpuWith - cpuWithout) / CLAIMS).toFixed(1)} ms (${CLAIMS} claims: ${cpuWith.toFixed(0)} ms with viewers, ${cpuWithout.toFixed(0)} ms without; 10 ms ticks)`,
    );
    for (const viewer of viewers) viewer.close();
    viewers.length = 0;
    await sleep(1000);

    // ---- phase 2: reconnect storm
    const upstreams = {
      MAP_URL: stack.replicas.map.map((r) => r.url).join(','),
      PLOTS_URL: stack.replicas.plots.map((r) => r.url).join(','),
      PAYMENTS_URL: stack.replicas.payments.map((r) => r.url).join(','),
      MODERATION_URL: stack.replicas.moderation.map((r) => r.url).join(','),
      CONTACT_URL: 'http://127.0.0.1:9',
    };
    const second = await startServiceProcess(
      'gateway',
      { ...stack.envFor('gateway'), ...upstreams, SERVICE_NODE_ARGS: '' },
      { readyTimeoutMs: 120_000 },
    );
    extraGateways.push(second);
    await sleep(2500); // its upstream health checks
    const survivorPort = stack.gateway.port;
    for (let i = 0; i < VIEWERS; i++) viewers.push(new Viewer(viewerAddress(i, PER_ADDRESS)));
    const onSecond = new Set(viewers.filter((_, i) => i % 2 === 1));
    let killedAt = 0;
    const reconnectedAt = new Map<Viewer, number>();
    const reconnectTook: number[] = [];
    const reconnect = (viewer: Viewer) => {
      // What EventSource does: wait the server's `retry:` (each viewer was told its own), then connect once.
      setTimeout(() => {
        const attempt = performance.now();
        viewer.connect(survivorPort).then(
          () => {
            reconnectedAt.set(viewer, performance.now());
            reconnectTook.push(performance.now() - attempt);
          },
          () => undefined,
        );
      }, viewer.retryMs);
    };
    await connectAll(
      viewers,
      (viewer) => (onSecond.has(viewer) ? second.port : survivorPort),
      (viewer) => onSecond.has(viewer) && reconnect(viewer),
    );
    const stormSessions = sessions.slice(CLAIMS * 2);
    const claimedAt = await claimAll(site, stormSessions, 50, (i) => {
      if (i === Math.floor(stormSessions.length / 4)) {
        killedAt = performance.now();
        second.child.kill('SIGKILL');
      }
    });
    await sleep(8000);
    const storm = { complete: 0, missed: 0, duplicates: 0, catchUp: [] as number[], neverReconnected: 0 };
    for (const viewer of viewers) {
      storm.duplicates += viewer.duplicates;
      const missing = [...claimedAt.keys()].filter((id) => !viewer.heard.has(id));
      storm.missed += missing.length;
      if (missing.length === 0 && viewer.duplicates === 0) storm.complete += 1;
      if (!onSecond.has(viewer)) continue;
      const back = reconnectedAt.get(viewer);
      if (back === undefined) {
        storm.neverReconnected += 1;
        continue;
      }
      if (missing.length > 0) continue;
      const owed = [...claimedAt].filter(([, at]) => at <= back).map(([id]) => viewer.heard.get(id)!);
      storm.catchUp.push(Math.max(back, ...owed) - killedAt);
    }
    storm.catchUp.sort((a, b) => a - b);
    reconnectTook.sort((a, b) => a - b);
    console.log('\nPhase 2: reconnect storm (2 gateways, one SIGKILLed while plots are claimed)');
    console.log(`  ${onSecond.size} viewers lost their gateway; ${onSecond.size - storm.neverReconnected} reconnected to the other`);
    console.log(
      `  reconnect (from the attempt, after the server's retry delay, to ready): p50 ${ms(percentile(reconnectTook, 50))}, p99 ${ms(percentile(reconnectTook, 99))}`,
    );
    console.log(`  viewers with every one of ${claimedAt.size} events exactly once: ${storm.complete} of ${VIEWERS}`);
    console.log(`  events missed: ${storm.missed}; duplicates: ${storm.duplicates}`);
    console.log(
      `  time from the kill until a reconnected viewer had everything: p50 ${ms(percentile(storm.catchUp, 50))}, p99 ${ms(percentile(storm.catchUp, 99))} ` +
        `(${storm.catchUp.length} of ${onSecond.size} caught up)`,
    );
  } finally {
    for (const viewer of viewers) viewer.close();
    await Promise.allSettled(extraGateways.map((g) => g.stop('SIGKILL')));
    await stack.stop();
  }
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}

await main();
