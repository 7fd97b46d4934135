/**
 * The crowd of `npm run bench:pages`, in its own process: `visitors` people opening one page again and again for
 * `seconds`, each on its own keep-alive connection from one of `addresses` loopback addresses (127.1.x.y), waiting
 * `thinkMs` on average (0.5–1.5×) between loads as a reader does. They arrive over the first `thinkMs`.
 *
 *   node --import tsx bench/pages-crowd.ts '<json CrowdPlan>'
 *   → prints {"started":true} once every visitor has begun, then the CrowdResult as one JSON line.
 */
import http from 'node:http';

export interface CrowdPlan {
  port: number;
  path: string;
  headers: Record<string, string>;
  visitors: number;
  addresses: number;
  seconds: number;
  thinkMs: number;
}

export interface CrowdResult {
  requests: number;
  errors: number;
  /** Status codes other than 200 and socket errors, by kind. */
  failures: Record<string, number>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requestsPerSecond: number;
}

/** 127.1.0.1, 127.1.0.2, …: every address of 127.0.0.0/8 is the loopback interface, no setup needed. */
function loopbackAddress(index: number): string {
  const n = index + 1;
  return `127.1.${(n >> 8) & 255}.${n & 255}`;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as CrowdPlan;
const latencies: number[] = [];
const failures: Record<string, number> = {};
const fail = (kind: string) => (failures[kind] = (failures[kind] ?? 0) + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function load(agent: http.Agent): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.get({ host: '127.0.0.1', port: plan.port, path: plan.path, agent, headers: plan.headers }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => {
        if (response.statusCode === 200) latencies.push(performance.now() - started);
        else fail(`status ${response.statusCode}`);
        resolve();
      });
      response.on('error', (error) => {
        fail(error.message);
        resolve();
      });
    });
    request.setTimeout(10_000, () => request.destroy(new Error('timeout (10 s)')));
    request.on('error', (error) => {
      fail((error as NodeJS.ErrnoException).code ?? error.message);
      resolve();
    });
  });
}

async function visitor(index: number, until: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: loopbackAddress(index % plan.addresses) });
  await sleep(Math.random() * plan.thinkMs);
  while (Date.now() < until) {
    await load(agent);
    await sleep(plan.thinkMs * (0.5 + Math.random()));
  }
  agent.destroy();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const began = Date.now();
const until = began + plan.seconds * 1000;
const running = Array.from({ length: plan.visitors }, (_, i) => visitor(i, until));
setTimeout(() => process.stdout.write(`${JSON.stringify({ started: true })}\n`), plan.thinkMs).unref();
await Promise.all(running);
const sorted = latencies.sort((a, b) => a - b);
const errors = Object.values(failures).reduce((sum, n) => sum + n, 0);
const result: CrowdResult = {
  requests: sorted.length + errors,
  errors,
  failures,
  p50: percentile(sorted, 50),
  p90: percentile(sorted, 90),
  p99: percentile(sorted, 99),
  max: sorted.at(-1) ?? NaN,
  requestsPerSecond: (sorted.length + errors) / ((Date.now() - began) / 1000),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
