import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { linkHealthSchema } from '@pixel-atlas/contracts/link-health';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { TEST_INTERNAL_TOKEN, eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { linkCheckerUserAgent } from '../link-checker.ts';
import { checkPlotLinks, type LinkCheckSchedule } from './check-plot-links.ts';
import { getLinkHealth } from './get-link-health.ts';
import { LinkProber, isAllowedAddress } from './probe-link.ts';

const DAY = 24 * 60 * 60 * 1000;
// Long enough that a site answering at once is never timed out on a busy machine; /slow answers only well after it.
const TIMEOUT_MS = 2_500;
const USER_AGENT = linkCheckerUserAgent('Pixel Atlas', 'https://atlas.example.com');

/** A local HTTP server playing every kind of site a plot may link to, counting what reaches it. */
interface Site {
  server: http.Server;
  origin: string;
  port: number;
  connections: number;
  requests: Array<{ method: string; path: string; userAgent: string | undefined }>;
  /** Per path: most requests in flight at once. */
  maxInFlight: Map<string, number>;
  bigBytesWritten: number;
  flaky: { up: boolean };
}

async function startSite(host = '127.0.0.1'): Promise<Site> {
  const inFlight = new Map<string, number>();
  const site = { connections: 0, requests: [], maxInFlight: new Map(), bigBytesWritten: 0, flaky: { up: false } } as unknown as Site;
  site.server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    site.requests.push({ method: req.method!, path, userAgent: req.headers['user-agent'] });
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    site.maxInFlight.set(path, Math.max(site.maxInFlight.get(path) ?? 0, inFlight.get(path)!));
    res.on('close', () => inFlight.set(path, inFlight.get(path)! - 1));
    if (path === '/up' || path.startsWith('/slow-up/')) {
      setTimeout(() => res.end('hello'), path === '/up' ? 0 : 150);
    } else if (path === '/404') {
      res.statusCode = 404;
      res.end('nope');
    } else if (path === '/500') {
      res.statusCode = 500;
      res.end();
    } else if (path === '/slow') {
      setTimeout(() => res.end('late'), TIMEOUT_MS * 4).unref();
    } else if (path === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (path === '/hop') {
      res.writeHead(301, { location: '/up' }).end();
    } else if (path.startsWith('/redirect-to/')) {
      res.writeHead(302, { location: decodeURIComponent(path.slice('/redirect-to/'.length)) }).end();
    } else if (path === '/no-head') {
      if (req.method === 'HEAD') {
        res.statusCode = 405;
        res.end();
        return;
      }
      res.end('ok for GET');
    } else if (path === '/big') {
      if (req.method === 'HEAD') {
        res.statusCode = 405;
        res.end();
        return;
      }
      // A page that never ends: the checker must read a few KB and hang up.
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && site.bigBytesWritten < 64 * 1024 * 1024) {
          site.bigBytesWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    } else if (path === '/flaky') {
      res.statusCode = site.flaky.up ? 200 : 503;
      res.end();
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  site.server.on('connection', () => (site.connections += 1));
  await new Promise<void>((resolve) => site.server.listen(0, host, resolve));
  site.port = (site.server.address() as AddressInfo).port;
  site.origin = `http://${host}:${site.port}`;
  return site;
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const plots = servicePerFile((env) => buildApp(loadEnv({ ...env, LINK_CHECK_INTERVAL_MS: '0' })));
let site: Site;
let privateSite: Site;
/** A port nothing listens on: a site that is down. */
let downPort: number;

beforeAll(async () => {
  site = await startSite('127.0.0.1');
  // Loopback too, but outside the networks the tests allow: standing in for an internal service.
  privateSite = await startSite('127.0.0.2');
  downPort = await closedPort();
});
afterAll(async () => {
  await Promise.all([site, privateSite].map((s) => s && new Promise((resolve) => s.server.close(resolve))));
});

let nextTile = 0;
async function plotLinkingTo(link: string | null, options: { visible?: boolean } = {}): Promise<string> {
  const id = randomUUID();
  const n = nextTile++;
  await plots.app.db.plot.create({
    data: {
      id,
      zone: 'nexus',
      tier: 'basic',
      x: n % 90,
      y: Math.floor(n / 90),
      size: 1,
      displayName: `Plot ${n}`,
      message: 'hello',
      link,
      stripeSessionId: `cs_test_links_${id}`,
      visible: options.visible ?? true,
    },
  });
  return id;
}

const schedule: LinkCheckSchedule = {
  recheckMs: DAY,
  batchSize: 50,
  concurrency: 4,
  leaseMs: 60_000,
  unreachableAfterFailures: 3,
  unreachableAfterMs: 3 * DAY,
};

/** A prober allowed to reach the tests' own server on 127.0.0.1 (and only it: 127.0.0.2 stays refused). */
function testProber(): LinkProber {
  return new LinkProber({
    userAgent: USER_AGENT,
    timeoutMs: TIMEOUT_MS,
    allowedPorts: [site.port, privateSite.port, downPort],
    allowedNetworks: ['127.0.0.1/32'],
  });
}

/** Runs rounds until nothing is due at `at`, as the background loop would. */
async function checkAll(prober: LinkProber, at: Date, workerId = 'worker-a'): Promise<number> {
  let total = 0;
  for (;;) {
    const checked = await checkPlotLinks({ db: plots.app.db, prober, schedule, workerId, now: () => at });
    total += checked;
    if (checked === 0) return total;
  }
}

describe('address policy', () => {
  it('lets only public unicast addresses through, IPv4-mapped IPv6 judged as its IPv4', () => {
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14']) {
      expect(isAllowedAddress(address), address).toBe(true);
    }
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'not an address',
    ];
    for (const address of refused) expect(isAllowedAddress(address), address).toBe(false);
  });
});

describe('the link checker against local servers: each kind of site', () => {
  it('gives each kind of site its state and never contacts a private address', async () => {
    // Only this case's requests: the shared site also serves the other cases (/up among them).
    const earlier = site.requests.length;
    const prober = testProber();
    const ids = {
      up: await plotLinkingTo(`${site.origin}/up`),
      hop: await plotLinkingTo(`${site.origin}/hop`),
      noHead: await plotLinkingTo(`${site.origin}/no-head`),
      big: await plotLinkingTo(`${site.origin}/big`),
      notFound: await plotLinkingTo(`${site.origin}/404`),
      serverError: await plotLinkingTo(`${site.origin}/500`),
      slow: await plotLinkingTo(`${site.origin}/slow`),
      loop: await plotLinkingTo(`${site.origin}/loop`),
      down: await plotLinkingTo(`http://127.0.0.1:${downPort}/`),
      privateAddress: await plotLinkingTo(`${privateSite.origin}/up`),
      redirectToPrivate: await plotLinkingTo(`${site.origin}/redirect-to/${encodeURIComponent(`${privateSite.origin}/up`)}`),
      otherPort: await plotLinkingTo('http://127.0.0.1:8/'),
      hidden: await plotLinkingTo(`${site.origin}/up`, { visible: false }),
      noLink: await plotLinkingTo(null),
    };
    expect(await checkAll(prober, new Date())).toBe(12);

    const health = async (id: string) => linkHealthSchema.parse(await getLinkHealth({ db: plots.app.db, plotId: id }));
    for (const id of [ids.up, ids.hop, ids.noHead, ids.big]) {
      expect(await health(id)).toMatchObject({
        status: 'ok',
        lastError: null,
        lastOkAt: expect.any(String),
        lastCheckedAt: expect.any(String),
      });
    }
    expect(await health(ids.notFound)).toMatchObject({ status: 'failing', lastError: 'HTTP 404', lastOkAt: null });
    expect(await health(ids.serverError)).toMatchObject({ status: 'failing', lastError: 'HTTP 500' });
    expect(await health(ids.slow)).toMatchObject({ status: 'failing', lastError: 'timed out after 2.5 s' });
    expect(await health(ids.loop)).toMatchObject({ status: 'failing', lastError: 'too many redirects' });
    expect(await health(ids.down)).toMatchObject({ status: 'failing', lastError: 'connection refused' });
    expect(await health(ids.privateAddress)).toMatchObject({ status: 'failing', lastError: 'refused: 127.0.0.2 is not a public address' });
    expect(await health(ids.redirectToPrivate)).toMatchObject({
      status: 'failing',
      lastError: 'refused: 127.0.0.2 is not a public address',
    });
    expect(await health(ids.otherPort)).toMatchObject({ status: 'failing', lastError: 'refused: port 8' });
    expect(await health(ids.hidden)).toMatchObject({ status: 'unchecked', lastCheckedAt: null });
    expect(await health(ids.noLink)).toMatchObject({ status: 'unchecked' });

    expect(privateSite.connections).toBe(0);
    const requests = site.requests.slice(earlier);
    // The loop was followed 5 times by hand (HEAD only: a redirect loop is not retried with GET), then given up.
    expect(requests.filter((r) => r.path === '/loop')).toHaveLength(6);
    // HEAD first; GET only where HEAD was refused, and the endless page was read a few KB, then dropped.
    // (/up is asked twice: its own plot, and /hop's redirect.)
    expect(requests.filter((r) => r.path === '/up').map((r) => r.method)).toEqual(['HEAD', 'HEAD']);
    expect(requests.filter((r) => r.path === '/no-head').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(site.bigBytesWritten).toBeLessThan(8 * 1024 * 1024);
    expect(new Set(requests.map((r) => r.userAgent))).toEqual(new Set([USER_AGENT]));
    expect(USER_AGENT).toMatch(/^PixelAtlas-LinkChecker\/1\.0 \(\+https:\/\/atlas\.example\.com; /);
    await prober.close();
  });
});

describe('the link checker against local servers: failures over days, a changed link, two replicas', () => {
  it('marks a link unreachable after N failures over 3 days (once, with an event), and clears the mark when it recovers', async () => {
    const prober = testProber();
    site.flaky.up = false;
    const id = await plotLinkingTo(`${site.origin}/flaky`);
    const start = new Date(Date.now() + 10 * DAY);
    const at = (days: number) => new Date(start.getTime() + days * DAY);
    const unreachableEvents = async () =>
      (await plots.app.db.outboxEvent.findMany({ where: { subject: 'plots.link.unreachable' } })).filter(
        (row) => (row.payload as { data?: { plotId?: string } }).data?.plotId === id,
      );

    await checkAll(prober, at(0));
    await checkAll(prober, at(1));
    await checkAll(prober, at(2));
    // Three failures, but over two days only: still just failing.
    expect(await getLinkHealth({ db: plots.app.db, plotId: id })).toMatchObject({ status: 'failing', lastError: 'HTTP 503' });
    expect(await unreachableEvents()).toHaveLength(0);
    // Not due yet half a day later: nothing checked.
    expect(await checkAll(prober, new Date(at(2).getTime() + DAY / 2))).toBe(0);

    await checkAll(prober, at(3));
    expect(await getLinkHealth({ db: plots.app.db, plotId: id })).toMatchObject({ status: 'unreachable', lastOkAt: null });
    await checkAll(prober, at(4));
    const events = await unreachableEvents();
    expect(events).toHaveLength(1);
    expect((events[0]!.payload as any).data).toMatchObject({
      plotId: id,
      link: `${site.origin}/flaky`,
      failingSince: at(0).toISOString(),
      consecutiveFailures: 4,
      lastError: 'HTTP 503',
    });

    site.flaky.up = true;
    await checkAll(prober, at(5));
    expect(await getLinkHealth({ db: plots.app.db, plotId: id })).toEqual({
      status: 'ok',
      lastOkAt: at(5).toISOString(),
      lastCheckedAt: at(5).toISOString(),
      lastError: null,
    });
    const row = await plots.app.db.linkCheck.findUniqueOrThrow({ where: { plotId: id } });
    expect(row).toMatchObject({ consecutiveFailures: 0, failingSince: null });
    await prober.close();
  });

  it('starts over when the owner changes the link', async () => {
    const prober = testProber();
    const id = await plotLinkingTo(`${site.origin}/404`);
    const at = new Date(Date.now() + 30 * DAY);
    await checkAll(prober, at);
    expect((await getLinkHealth({ db: plots.app.db, plotId: id })).status).toBe('failing');
    await plots.app.db.plot.update({ where: { id }, data: { link: `${site.origin}/up` } });
    // The old link's result says nothing about the new one.
    expect(await getLinkHealth({ db: plots.app.db, plotId: id })).toMatchObject({ status: 'unchecked', lastError: null });
    // Due at once, although the old link's next check was a day away.
    await checkAll(prober, at);
    expect(await getLinkHealth({ db: plots.app.db, plotId: id })).toMatchObject({ status: 'ok', lastError: null });
    await prober.close();
  });

  it('two replicas never check the same link, and share the work', async () => {
    const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => plotLinkingTo(`${site.origin}/slow-up/${i}`)));
    const at = new Date(Date.now() + 60 * DAY);
    // Every link the earlier tests made is due again by then too (checked once each as well).
    const earlier = await plots.app.db.linkCheck.count();
    const replicas = [testProber(), testProber()];
    const small = { ...schedule, batchSize: 6, concurrency: 3 };
    const checkedBy = [0, 0];
    const run = async (index: number) => {
      for (;;) {
        const checked = await checkPlotLinks({
          db: plots.app.db,
          prober: replicas[index]!,
          schedule: small,
          workerId: `replica-${index}`,
          now: () => at,
        });
        checkedBy[index]! += checked;
        if (checked === 0) return;
      }
    };
    await Promise.all([run(0), run(1)]);
    const slowPaths = site.requests.filter((r) => r.path.startsWith('/slow-up/'));
    expect(slowPaths).toHaveLength(24);
    expect(new Set(slowPaths.map((r) => r.path)).size).toBe(24);
    expect(Math.max(...[...site.maxInFlight].filter(([path]) => path.startsWith('/slow-up/')).map(([, n]) => n))).toBe(1);
    expect(checkedBy[0]! + checkedBy[1]!).toBe(24 + earlier);
    expect(checkedBy[0]).toBeGreaterThan(0);
    expect(checkedBy[1]).toBeGreaterThan(0);
    for (const id of ids) expect((await getLinkHealth({ db: plots.app.db, plotId: id })).status).toBe('ok');
    await Promise.all(replicas.map((r) => r.close()));
  });
});

describe('the checker as the service runs it (no allowed networks: the production policy)', () => {
  it('never connects to loopback, a name resolving to it, or a private address, and the admin sees them failing', async () => {
    const target = await startSite('127.0.0.1');
    const service = await buildApp(
      loadEnv({
        ...plots.env,
        LINK_CHECK_INTERVAL_MS: '100',
        LINK_CHECK_TIMEOUT_MS: '2000',
        LINK_CHECK_ALLOWED_PORTS: `80,443,${target.port}`,
      }),
    );
    try {
      const ids = [
        await plotLinkingTo(`http://127.0.0.1:${target.port}/up`),
        await plotLinkingTo(`http://localhost:${target.port}/up`),
        await plotLinkingTo(`http://[::ffff:127.0.0.1]:${target.port}/up`),
        await plotLinkingTo(`http://10.0.0.1:${target.port}/up`),
        await plotLinkingTo(`http://169.254.169.254/latest/meta-data/`),
      ];
      await service.ready();
      const healths = await eventually(async () => {
        const all = await Promise.all(ids.map((plotId) => getLinkHealth({ db: plots.app.db, plotId })));
        return all.every((h) => h.lastCheckedAt) && all;
      }, 15_000);
      for (const h of healths)
        expect(h).toMatchObject({ status: 'failing', lastError: expect.stringMatching(/^refused: .* is not a public address$/) });
      expect(target.connections).toBe(0);

      const listed = await service.inject({
        url: '/api/admin/link-health?status=failing',
        headers: { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': 'admin' },
      });
      expect(listed.statusCode).toBe(200);
      const links = listed.json().links as Array<{ plotId: string; status: string }>;
      for (const id of ids) expect(links.find((l) => l.plotId === id)?.status).toBe('failing');
      expect((await service.inject({ url: '/api/admin/link-health' })).statusCode).toBe(401);
      expect(
        (
          await service.inject({
            url: '/api/admin/link-health?status=bogus',
            headers: { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': 'admin' },
          })
        ).statusCode,
      ).toBe(400);
      const metrics = await service.inject('/metrics');
      expect(metrics.body).toMatch(/plots_link_checks_total\{status="failing"[^}]*\} [1-9]/);
    } finally {
      await service.close();
      await new Promise((resolve) => target.server.close(resolve));
    }
  });
});

describe('two replicas of the service', () => {
  it('check each link once between them, never the same one twice', async () => {
    const env = loadEnv({
      ...plots.env,
      LINK_CHECK_INTERVAL_MS: '50',
      LINK_CHECK_BATCH_SIZE: '5',
      LINK_CHECK_TIMEOUT_MS: '2000',
    });
    const replicas = [await buildApp(env), await buildApp(env)];
    // Names under .invalid never resolve: every check fails at once, without a connection anywhere.
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => plotLinkingTo(`https://replica-${i}.invalid/`)));
    try {
      await Promise.all(replicas.map((replica) => replica.ready()));
      await eventually(
        async () => (await plots.app.db.linkCheck.count({ where: { plotId: { in: ids }, lastCheckedAt: { not: null } } })) === ids.length,
        15_000,
      );
      const checkedBy = () =>
        Promise.all(
          replicas.map(async (replica) => {
            const text = await replica.metrics.getSingleMetricAsString('plots_link_checks_total');
            return Number(/status="failing"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
          }),
        );
      // Each check is counted once its result committed.
      await eventually(
        async () => {
          const [one, two] = await checkedBy();
          return one! + two! >= ids.length;
        },
        15_000,
        10,
      );
      // More rounds of both: a link added now is checked by the first replica to run a round; another one, by the
      // first to run the next; until each replica has checked one. A round leases due links oldest first, so any of
      // the 40 due again would have been taken before these; and each replica's rounds run one after another, so its
      // earlier ones are over.
      const heardFrom = [false, false];
      let sentinels = 0;
      while (!heardFrom.every(Boolean)) {
        const before = await checkedBy();
        await plotLinkingTo(`https://sentinel-${sentinels++}.invalid/`);
        const after = await eventually(
          async () => {
            const now = await checkedBy();
            return now[0]! + now[1]! > before[0]! + before[1]! && now;
          },
          15_000,
          10,
        );
        for (const index of [0, 1]) if (after[index]! > before[index]!) heardFrom[index] = true;
      }
      const rows = await plots.app.db.linkCheck.findMany({ where: { plotId: { in: ids } } });
      expect(rows.map((row) => row.consecutiveFailures)).toEqual(ids.map(() => 1));
      // A resolver on a loaded machine may time out instead of answering that the name does not exist.
      for (const row of rows) expect(row.lastError).toMatch(/^(the name does not resolve|timed out after \d+ s)$/);
      const [one, two] = await checkedBy();
      expect(one! + two!).toBe(ids.length + sentinels);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });
});
