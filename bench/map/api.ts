/**
 * Layout API benchmark: GET /api/map-layout through the gateway and straight from the map service
 * (both real processes), with autocannon's programmatic API, plus single-response byte counts.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { processCpuMs } from '@pixel-atlas/test-stack/process-cpu';
import autocannon, { type Result as AutocannonResult } from 'autocannon';
import { fmt, fmtInt, table } from './stats.ts';

export interface ApiOptions {
  /** `pid`: the process answering, whose CPU time per request is reported beside its req/s (Linux). */
  targets: Array<{ name: string; base: string; pid?: number }>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** The measured seconds split into this many runs per target, alternating the targets (1: one run each). */
  rounds?: number;
}

interface RawResponse {
  status: number;
  encoding: string;
  bytes: number;
  etag: string | undefined;
  contentLength: string | undefined;
}

/** One GET with Node's http client: the body exactly as sent (no transparent decompression, unlike fetch). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          encoding: String(response.headers['content-encoding'] ?? 'identity'),
          bytes,
          etag: response.headers.etag,
          contentLength: response.headers['content-length'],
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error(`timeout: ${url}`)));
  });
}

/**
 * autocannon's HTTP parser (http-parser-js) lets a Content-Length header override the rule that a 304
 * has no body, and the map service answers 304 with `content-length: 4` (the length of the serialised
 * `null` it sends). Every 304 would then wait for 4 bytes that never come and end as a timeout. This
 * makes the parser skip the body of a 304, as RFC 9110 (section 15.4.5) and browsers do. Only 304s are affected.
 */
const ON_HEADERS_COMPLETE: number = (() => {
  try {
    return createRequire(createRequire(import.meta.url).resolve('autocannon'))('http-parser-js').HTTPParser.kOnHeadersComplete;
  } catch {
    return 2;
  }
})();
function bodilessNotModified(client: { parser: Record<number, unknown> }): void {
  let handler: ((...args: unknown[]) => unknown) | undefined;
  Object.defineProperty(client.parser, ON_HEADERS_COMPLETE, {
    configurable: true,
    get: () => handler,
    set(onHeadersComplete: (...args: unknown[]) => unknown) {
      handler = (...args) => {
        const result = onHeadersComplete(...args);
        // One info object in the parser's 0.12 compatibility mode (autocannon's), positional arguments otherwise.
        const status = args.length === 1 ? (args[0] as { statusCode: number }).statusCode : args[5];
        return status === 304 ? true : result;
      };
    },
  });
}

/** CPU seconds a process has used (user + system); undefined where there is none. */
const cpuSecondsOf = (pid: number | undefined) => {
  const ms = processCpuMs(pid);
  return ms === undefined ? undefined : ms / 1000;
};

interface LoadRow {
  target: string;
  variant: string;
  requestsPerSecond: number;
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  wireBytesPerResponse: number;
  /** CPU µs per request of the target's process and of this one (autocannon), over the measured seconds only. */
  serverCpuMicros: number;
  clientCpuMicros: number;
}

/** autocannon's latency percentiles are whole milliseconds: 0 means under 1 ms. */
const ms = (value: number) => (value === 0 ? '<1' : String(value));
const ratio = (a: number, b: number) => (a > 0 && b > 0 ? `${fmt(a / b)}×` : '—');

export async function runApiBenchmark(options: ApiOptions): Promise<{ report: string; rows: LoadRow[] }> {
  const path = '/api/map-layout';
  const [firstTarget] = options.targets;
  if (!firstTarget) throw new Error('no target to benchmark');
  const first = await rawGet(firstTarget.base + path);
  if (first.status !== 200 || !first.etag) throw new Error(`GET ${path} answered ${first.status} (etag ${first.etag})`);
  const etag = first.etag;

  // Bytes of one response per encoding, per target.
  const encodings: Array<[string, Record<string, string>]> = [
    ['none (identity)', {}],
    ['gzip', { 'accept-encoding': 'gzip' }],
    ['br', { 'accept-encoding': 'br' }],
    ['br, gzip', { 'accept-encoding': 'br, gzip' }],
    ['304 (if-none-match)', { 'accept-encoding': 'br, gzip', 'if-none-match': etag }],
  ];
  const sizeRows: Array<Array<string | number>> = [
    [
      'accept-encoding',
      ...options.targets.flatMap((t) => [`${t.name} status`, `${t.name} encoding`, `${t.name} body bytes`]),
      'vs identity',
    ],
  ];
  let identityBytes = 0;
  for (const [label, headers] of encodings) {
    const responses = await Promise.all(options.targets.map((t) => rawGet(t.base + path, headers)));
    const firstBytes = responses[0]!.bytes; // one response per target, and there is a first target
    if (label.startsWith('none')) identityBytes = firstBytes;
    sizeRows.push([
      label,
      ...responses.flatMap((r) => [r.status, r.encoding, fmtInt(r.bytes)]),
      identityBytes ? `${fmt((firstBytes / identityBytes) * 100, 1)}%` : '—',
    ]);
  }

  const notModified = await Promise.all(
    options.targets.map(async (target) => ({ target, response: await rawGet(target.base + path, { 'if-none-match': etag }) })),
  );
  // Each note names the target its response came from (filtering first would shift the indexes).
  const sizeNote = notModified
    .filter(({ response }) => response.status === 304 && response.contentLength !== undefined)
    .map(({ target, response }) => `${target.name} 304 carries content-length: ${response.contentLength}`);

  const variants: Array<{ name: string; headers: Record<string, string>; expect: '2xx' | '3xx' }> = [
    { name: 'no accept-encoding', headers: {}, expect: '2xx' },
    { name: 'accept-encoding: br, gzip', headers: { 'accept-encoding': 'br, gzip' }, expect: '2xx' },
    { name: 'if-none-match (304)', headers: { 'accept-encoding': 'br, gzip', 'if-none-match': etag }, expect: '3xx' },
  ];
  const rows: LoadRow[] = [];
  const rounds = Math.max(1, Math.floor(options.rounds ?? 1));
  for (const variant of variants) {
    const loadOf = (target: ApiOptions['targets'][number]) => ({
      url: target.base + path,
      connections: options.connections,
      headers: variant.headers,
      setupClient: bodilessNotModified,
    });
    // The warm-up as a run of its own, so the CPU read around the measured ones covers only their requests.
    for (const target of options.targets) await autocannon({ ...loadOf(target), duration: options.warmupSeconds });
    const runs = new Map<string, Array<{ result: AutocannonResult; serverCpu: number | undefined; clientCpu: number }>>();
    // Rounds alternate the targets, so a burst of other work on a shared machine falls on both rather than on one row.
    for (let round = 0; round < rounds; round += 1) {
      for (const target of options.targets) {
        const [serverBefore, clientBefore] = [cpuSecondsOf(target.pid), process.cpuUsage()];
        const result = await autocannon({ ...loadOf(target), duration: options.durationSeconds / rounds });
        const [serverAfter, client] = [cpuSecondsOf(target.pid), process.cpuUsage(clientBefore)];
        const serverCpu = serverBefore !== undefined && serverAfter !== undefined ? serverAfter - serverBefore : undefined;
        runs.set(target.name, [...(runs.get(target.name) ?? []), { result, serverCpu, clientCpu: (client.user + client.system) / 1e6 }]);
      }
    }
    for (const target of options.targets) {
      const own = runs.get(target.name) ?? [];
      const sum = (of: (run: (typeof own)[number]) => number) => own.reduce((total, run) => total + of(run), 0);
      const total = sum((run) => run.result.requests.total);
      const seconds = sum((run) => run.result.duration);
      const unexpected = total - sum((run) => run.result[variant.expect]);
      const serverCpu = own.every((run) => run.serverCpu !== undefined) ? sum((run) => run.serverCpu ?? 0) : undefined;
      const p50s = own.map((run) => run.result.latency.p50).sort((a, b) => a - b);
      rows.push({
        target: target.name,
        variant: variant.name,
        requestsPerSecond: seconds ? total / seconds : 0,
        mean: total ? sum((run) => run.result.latency.average * run.result.requests.total) / total : Number.NaN,
        p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
        p99: Math.max(...own.map((run) => run.result.latency.p99)),
        errors: sum((run) => run.result.errors + run.result.timeouts) + Math.max(0, unexpected),
        wireBytesPerResponse: total ? sum((run) => run.result.throughput.total) / total : Number.NaN,
        serverCpuMicros: total && serverCpu !== undefined ? (serverCpu * 1e6) / total : Number.NaN,
        clientCpuMicros: total ? (sum((run) => run.clientCpu) * 1e6) / total : Number.NaN,
      });
    }
  }

  const loadLines: Array<Array<string | number>> = [
    [
      'request',
      'target',
      'req/s',
      'mean ms',
      'p50 ms',
      'p99 ms',
      'errors',
      'wire bytes/resp',
      'server CPU µs/req',
      'autocannon CPU µs/req',
    ],
  ];
  for (const row of rows) {
    loadLines.push([
      row.variant,
      row.target,
      fmtInt(row.requestsPerSecond),
      fmt(row.mean),
      ms(row.p50),
      ms(row.p99),
      row.errors,
      fmtInt(row.wireBytesPerResponse),
      Number.isNaN(row.serverCpuMicros) ? '—' : fmt(row.serverCpuMicros, 1),
      fmt(row.clientCpuMicros, 1),
    ]);
  }
  const ratioLines: Array<Array<string | number>> = [
    ['request', 'req/s gw/direct', 'mean gw/direct', 'p50 gw/direct', 'p99 gw/direct', 'server CPU/req gw/direct'],
  ];
  const [direct, gateway] = [options.targets.find((t) => t.name === 'direct')!, options.targets.find((t) => t.name === 'gateway')!];
  for (const variant of variants) {
    const d = rows.find((r) => r.variant === variant.name && r.target === direct.name)!;
    const g = rows.find((r) => r.variant === variant.name && r.target === gateway.name)!;
    ratioLines.push([
      variant.name,
      ratio(g.requestsPerSecond, d.requestsPerSecond),
      ratio(g.mean, d.mean),
      ratio(g.p50, d.p50),
      ratio(g.p99, d.p99),
      ratio(g.serverCpuMicros, d.serverCpuMicros),
    ]);
  }

  const report = [
    `Layout API (GET ${path}; autocannon ${options.connections} connections, ${options.durationSeconds} s per row after ${options.warmupSeconds} s warm-up,`,
    `measured in ${rounds} run(s) per row alternating the targets (with several: p50 the median run's, p99 the worst run's);`,
    `latency percentiles in whole ms as autocannon records them; errors = socket errors + timeouts + any status other than the expected 200/304;`,
    `CPU µs/req: user + system time of the answering process and of autocannon's over the measured seconds, per request)`,
    '',
    table(loadLines),
    '',
    table(ratioLines),
    '',
    'Response bytes (one request each, body as sent on the wire)',
    '',
    table(sizeRows),
    ...(sizeNote.length
      ? ['', `note: ${sizeNote.join('; ')} (a 304 must announce no length or the 200's; autocannon is told to skip 304 bodies)`]
      : []),
  ].join('\n');
  return { report, rows };
}
