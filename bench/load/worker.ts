/**
 * The load generator, in its own process (a generator sharing the services' event loop would measure
 * itself): autocannon's programmatic API with a mixed request list, each connection cycling through it.
 * Reads its plan from the JSON file named on the command line, prints one JSON result on stdout.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { LoadPlan, WorkerResult } from './plan.ts';

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | null;
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
}
interface Histogram {
  average: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  total: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  errors: number;
  timeouts: number;
  duration: number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
}
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

const planFile = process.argv[2];
if (!planFile) throw new Error('usage: worker.ts <plan.json>');
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as LoadPlan;

const statuses: Record<string, Record<string, number>> = {};
const count = (kind: string) => (status: number) => {
  statuses[kind] ??= {};
  statuses[kind][status] = (statuses[kind][status] ?? 0) + 1;
};

// Every request comes from another visitor (X-Forwarded-For: the gateway trusts it in this stack), so
// per-visitor rules (one flag per visitor per plot, rate limits) see a crowd, not one client.
let visitor = 0;
const nextIp = () => {
  visitor += 1;
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
};
const pick = <T>(items: T[]): T => {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
};
let nextClaim = 0;
let claimsSent = 0;

const json = { 'content-type': 'application/json' };
const kinds: Record<string, AutocannonRequest> = {
  map: {
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: '/api/map-layout', headers: { 'x-forwarded-for': nextIp(), 'accept-encoding': 'gzip, br' } }),
    onResponse: count('map view'),
  },
  mapCached: {
    method: 'GET',
    setupRequest: (r) => ({
      ...r,
      path: '/api/map-layout',
      headers: { 'x-forwarded-for': nextIp(), 'accept-encoding': 'gzip, br', 'if-none-match': plan.mapEtag },
    }),
    onResponse: count('map view (If-None-Match)'),
  },
  plot: {
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: `/api/plots/${pick(plan.plotIds)}`, headers: { 'x-forwarded-for': nextIp() } }),
    onResponse: count('plot read'),
  },
  list: {
    method: 'GET',
    setupRequest: (r) => ({ ...r, path: '/api/plots', headers: { 'x-forwarded-for': nextIp(), 'accept-encoding': 'gzip, br' } }),
    onResponse: count('plot list'),
  },
  position: {
    method: 'GET',
    setupRequest: (r) => {
      const { x, y } = pick(plan.positions);
      return { ...r, path: `/api/position-available?x=${x}&y=${y}&tier=basic`, headers: { 'x-forwarded-for': nextIp() } };
    },
    onResponse: count('position check'),
  },
  claim: {
    method: 'POST',
    setupRequest: (r, context) => {
      const claim = plan.claims[nextClaim++];
      context.claimSlotIsPositionCheck = !claim;
      if (!claim) {
        // Pre-paid sessions used up: this slot becomes a position check (and is counted as one).
        const { x, y } = pick(plan.positions);
        return {
          ...r,
          method: 'GET',
          body: undefined,
          path: `/api/position-available?x=${x}&y=${y}&tier=basic`,
          headers: { 'x-forwarded-for': nextIp() },
        };
      }
      claimsSent += 1;
      return { ...r, method: 'POST', path: '/api/claim-plot', headers: { ...json, 'x-forwarded-for': nextIp() }, body: claim };
    },
    onResponse: (status, _body, context) => count(context.claimSlotIsPositionCheck ? 'position check' : 'claim')(status),
  },
  flag: {
    method: 'POST',
    setupRequest: (r) => ({
      ...r,
      path: '/api/flag-plot',
      headers: { ...json, 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ plotId: pick(plan.plotIds) }),
    }),
    onResponse: count('flag'),
  },
};

const requests = plan.mix.map((kind) => ({ ...kinds[kind] }));
const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.durationSeconds,
  requests,
  timeout: 30,
});
const output: WorkerResult = {
  requests: result.requests.total,
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p90: result.latency.p90,
  p99: result.latency.p99,
  errors: result.errors,
  timeouts: result.timeouts,
  by: { '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
  statuses,
  claimsSent,
};
process.stdout.write(JSON.stringify(output));
