// npm run test:compose — the operator's path, really run: the base images assembled here (no registry), every service
// image built from the Dockerfile, docker-compose.yml run by Debian's docker-compose against podman's API, a plot
// claimed and moderated through the gateway's loopback port, plots scaled to 3 and payments to 2, a replica killed
// under traffic, Prometheus checked, the stack restarted on its volumes, then once more on the nats-cluster profile (three
// NATS nodes, the stream with three replicas, a claim through them), and everything torn down (also on failure).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVICE_NAMES } from '@pixel-atlas/contracts/services';
import { NATS_USER_NAMES, natsPasswordEnvName } from '@pixel-atlas/service-kit/nats-auth';
import { parse } from 'yaml';
import { api, buyAndPay, claimPlot, pool, sleep, Visitor, type PaidSession } from '../../faults/support/traffic.ts';
import { BASE_IMAGES, ensureBaseImages } from './base-images.ts';
import { PODMAN, podmanBuild, prepareHost, run, startApiService, startHealthTicker } from './host.ts';
import { ComposeStack } from './stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, '.data', 'test-compose');
const APP_SERVICES: readonly string[] = SERVICE_NAMES;
const ONE_EACH = Object.fromEntries([...APP_SERVICES, 'postgres', 'nats', 'prometheus'].map((s) => [s, 1]));
const SCALED = { ...ONE_EACH, plots: 3, payments: 2 };
const SCALE_ARGS = ['--scale', 'plots=3', '--scale', 'payments=2'];
const ADMIN = { username: 'compose-admin', password: `compose-${randomBytes(12).toString('hex')}` };
const KILL_BUYERS = 24;
/** The nats-cluster profile's nodes (docker-compose.yml). */
const NATS_CLUSTER_NODES = ['nats-1', 'nats-2', 'nats-3'];

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
const step = (n: number, title: string) => console.log(`\n== ${n}. ${title}`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const cleanups: Array<{ what: string; run: () => unknown }> = [];
let liveStack: ComposeStack | null = null;

/** On failure: the state of every container and the last log lines of those not healthy, before the teardown. */
function reportContainers(): void {
  if (!liveStack) return;
  try {
    for (const c of liveStack.containers()) {
      console.error(`  ${c.name}: ${c.running ? 'running' : 'stopped'}, ${c.health}`);
      if (c.running && (c.health === 'healthy' || c.health === 'none')) continue;
      // Both streams: a crash's stack trace is on stderr. The id is podman's hex id.
      const tail = run('sh', ['-c', `${PODMAN.join(' ')} logs --tail 15 ${c.id} 2>&1`], { quiet: true });
      console.error(
        tail
          .split('\n')
          .map((l) => `    | ${l.slice(0, 300)}`)
          .join('\n'),
      );
    }
  } catch (error) {
    console.error(`(could not list the containers: ${(error as Error).message})`);
  }
}
let cleaningUp: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaningUp ??= (async () => {
    for (const { what, run: undo } of cleanups.reverse()) {
      try {
        await undo();
      } catch (error) {
        console.error(`clean-up (${what}) failed: ${(error as Error).message}`);
      }
    }
  })();
  return cleaningUp;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: tearing down`);
    void cleanUp().then(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  step(0, 'host: podman, runc, debootstrap, docker-compose');
  prepareHost(log);
  log(
    run(PODMAN[0], ['--version'], { quiet: true }).trim() + ' / ' + run('docker-compose', ['version', '--short'], { quiet: true }).trim(),
  );

  // ---- 1. base images
  step(1, 'base images (assembled once, cached under .data/test-compose)');
  const base = await ensureBaseImages(CACHE, log);
  log(`base images ${base.how} in ${base.seconds} s`);

  // ---- 2. service images from the Dockerfile, with the build arguments docker-compose.yml gives each
  step(2, 'service images from the Dockerfile');
  const composeFile = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; build?: { context: string; dockerfile?: string; args?: Record<string, string> } }>;
  };
  const imageTag = 'test-compose';
  const projectName = `pa-compose-${randomBytes(3).toString('hex')}`;
  const vars: Record<string, string> = {
    COMPOSE_PROJECT_NAME: projectName,
    IMAGE_TAG: imageTag,
    NODE_ENV: 'development', // the built-in test checkout (no Stripe here)
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    VISITOR_COOKIE_SECRET: randomBytes(32).toString('hex'),
    POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // The test plays many visitors, each with its own address in X-Forwarded-For, as a load balancer would send.
    TRUST_PROXY: '1',
    // A letter first, as the docs say: nats-server parses a variable's value as a config value, and one starting
    // with a digit (say 5e3…) is taken for a number and stops the broker (nats-io/nats-server#5189).
    ...Object.fromEntries(NATS_USER_NAMES.map((user) => [natsPasswordEnvName(user), `n${randomBytes(24).toString('hex')}`])),
  };
  const interpolate = (text: string) =>
    text.replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => vars[name] || fallback || '');
  const buildStarted = Date.now();
  const builtImages: string[] = [];
  for (const service of APP_SERVICES) {
    const { image, build } = composeFile.services[service] ?? {};
    check(image && build, `${service} has image and build in docker-compose.yml`);
    const tag = interpolate(image);
    const args = Object.entries(build.args ?? {}).flatMap(([k, v]) => ['--build-arg', `${k}=${interpolate(String(v))}`]);
    const one = Date.now();
    await podmanBuild([
      '-f',
      path.join(ROOT, build.context, build.dockerfile ?? 'Dockerfile'),
      ...args,
      '-t',
      tag,
      path.join(ROOT, build.context),
    ]);
    builtImages.push(tag);
    log(`built ${tag} in ${((Date.now() - one) / 1000).toFixed(1)} s`);
  }
  const buildSeconds = (Date.now() - buildStarted) / 1000;
  log(`time to build the six service images: ${buildSeconds.toFixed(1)} s`);
  // The database's image, shared by the backup service: postgres:15 with pgBackRest (deploy/postgres).
  const { image: pgImage, build: pgBuild } = composeFile.services.postgres ?? {};
  check(pgImage && pgBuild, 'postgres has image and build in docker-compose.yml');
  const pgBuildStarted = Date.now();
  await podmanBuild([
    '-f',
    path.join(ROOT, pgBuild.context, pgBuild.dockerfile ?? 'Dockerfile'),
    '-t',
    interpolate(pgImage),
    path.join(ROOT, pgBuild.context),
  ]);
  builtImages.push(interpolate(pgImage));
  log(`built ${interpolate(pgImage)} (PostgreSQL with pgBackRest) in ${((Date.now() - pgBuildStarted) / 1000).toFixed(1)} s`);
  console.log('\nimage sizes:');
  for (const image of [...Object.keys(BASE_IMAGES), ...builtImages]) {
    const size = Number(run(PODMAN[0], [...PODMAN.slice(1), 'image', 'inspect', '--format', '{{.Size}}', image], { quiet: true }).trim());
    console.log(`  ${image.padEnd(48)} ${mb(size).padStart(8)}`);
  }

  // ---- 3. the compose file, only the gateway published (on 127.0.0.1)
  step(3, 'docker-compose up (podman API), only the gateway published on 127.0.0.1');
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'pa-compose-'));
  cleanups.push({ what: 'work dir', run: () => rmSync(workDir, { recursive: true, force: true }) });
  const apiService = await startApiService(path.join(workDir, 'podman.sock'));
  cleanups.push({ what: 'podman API service', run: () => apiService.stop() });
  vars.PORT = String(await freePort());
  vars.PROMETHEUS_PORT = String(await freePort());
  vars.PUBLIC_ORIGIN = `http://127.0.0.1:${vars.PORT}`;
  const envFile = path.join(workDir, '.env');
  const writeEnvFile = () =>
    writeFileSync(
      envFile,
      Object.entries(vars)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );
  writeEnvFile();
  const stack = new ComposeStack(ROOT, projectName, envFile, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DOCKER_HOST: apiService.dockerHost,
    ...vars,
  });
  liveStack = stack;
  const ticker = startHealthTicker(projectName);
  cleanups.push({ what: 'health ticker', run: () => ticker.stop() });
  cleanups.push({
    what: 'compose down -v',
    run: async () => {
      const forced = await stack.tearDown();
      log(
        `torn down: compose down -v${forced.length ? `; then removed with podman: ${forced.join('; ')}` : ''}; containers left of ${projectName}: ${stack.containers().length}`,
      );
    },
  });
  const upStarted = Date.now();
  await stack.up([], log);
  await stack.waitHealthy(ONE_EACH, 300_000);
  log(`time to healthy (up -d until every container's healthcheck passed): ${((Date.now() - upStarted) / 1000).toFixed(1)} s`);
  // The shape faults/support/traffic.ts sends requests through: the gateway's published loopback port.
  const site = { gateway: { url: `http://127.0.0.1:${vars.PORT}` } };
  const published = run(
    PODMAN[0],
    [...PODMAN.slice(1), 'ps', '--filter', `label=com.docker.compose.project=${projectName}`, '--format', '{{.Names}} {{.Ports}}'],
    { quiet: true },
  )
    .split('\n')
    .filter((l) => /->/.test(l));
  console.log(`published ports:\n  ${published.join('\n  ')}`);
  check(
    published.length === 2 && published.some((l) => l.includes(`127.0.0.1:${vars.PORT}->8080`)),
    'only the gateway (and the loopback Prometheus overlay) publish a port, on 127.0.0.1',
  );
  const home = await fetch(`${site.gateway.url}/`);
  check(home.status === 200 && (await home.text()).includes('<div id="root"'), 'the gateway serves the built web app');

  // ---- 4. a plot claimed through the published port, then moderated
  step(4, 'claim a plot with the test checkout, then moderate it');
  const land = new Set(stack.sql<{ x: string; y: string }>('SELECT x, y FROM map.map_tiles WHERE is_land').map((r) => `${r.x},${r.y}`));
  check(land.size > 1000, `the map was generated (${land.size} land tiles)`);
  const [screenedSpot, ...moreSpots] = freeSpots(stack, land, 1 + KILL_BUYERS + 1);
  check(screenedSpot, 'a free land tile for the screened claim');
  const screened = await buyAndPay(site, 'basic', screenedSpot);
  const claimed = await claimPlot(site, screened, { display_name: 'Damn Fine Plot' });
  check(claimed.status === 201 || claimed.status === 200, `claim answered ${claimed.status} ${JSON.stringify(claimed.body)}`);
  const plotId = claimed.body.plot.id;
  log(`claimed plot ${plotId} at ${screened.x},${screened.y} (session ${screened.sessionId}); the content screen held it for review`);
  const admin = new Visitor();
  const login = await api(site, 'POST', '/api/admin/login', { json: ADMIN, visitor: admin, headers: { 'sec-fetch-site': 'same-origin' } });
  check(login.status === 200 || login.status === 204, `admin login answered ${login.status} ${JSON.stringify(login.body)}`);
  const queue = await eventuallyValue(async () => {
    const list = await api<Array<{ id: string }>>(site, 'GET', '/api/admin/flagged-plots', { visitor: admin });
    return list.status === 200 && list.body.some((p) => p.id === plotId) ? list.body : null;
  }, 30_000);
  log(`review queue has ${queue.length} plot(s), ours among them`);
  const approved = await api(site, 'POST', '/api/admin/approve-plot', {
    json: { plotId },
    visitor: admin,
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  check(approved.status === 200 || approved.status === 204, `approve answered ${approved.status} ${JSON.stringify(approved.body)}`);
  await eventuallyValue(async () => ((await api(site, 'GET', `/api/plots/${plotId}`)).status === 200 ? true : null), 30_000);
  log(`approved: GET /api/plots/${plotId} answers 200 through the gateway`);

  // ---- 5. scale out, and the gateway's spread over every replica
  step(5, 'scale plots to 3 and payments to 2; requests per replica');
  const scaleStarted = Date.now();
  await stack.up(SCALE_ARGS, log);
  await stack.waitHealthy(SCALED, 300_000);
  log(`scaled and healthy in ${((Date.now() - scaleStarted) / 1000).toFixed(1)} s`);
  await sleep(5000); // the gateway re-resolves upstream names every 2 s and checks each new replica's /readyz
  // A plot's own page data, not the plot list: the gateway answers the list from its memory (public-document-cache.ts).
  const counted = { plots: '/api/plots/:id', payments: '/api/prices' } as const;
  const before = new Map(
    Object.keys(counted).flatMap((s) =>
      stack.replicas(s).map((c) => [c.name, stack.requestsByRoute(c.id).get(counted[s as keyof typeof counted]) ?? 0]),
    ),
  );
  const SPREAD_REQUESTS = 60;
  const SPREAD_ROUNDS = 5;
  const servedSince = () =>
    (Object.keys(counted) as Array<keyof typeof counted>).flatMap((service) =>
      stack.replicas(service).map((replica) => ({
        replica: replica.name,
        route: counted[service],
        n: (stack.requestsByRoute(replica.id).get(counted[service]) ?? 0) - (before.get(replica.name) ?? 0),
      })),
    );
  // The gateway skips a replica whose /readyz was slower than its check's timeout (a new replica on a busy machine,
  // for a few seconds): rounds go on, a few seconds apart, until every replica has had requests, or the rounds run out.
  let rounds = 0;
  let served: ReturnType<typeof servedSince>;
  do {
    if (rounds > 0) await sleep(3000);
    rounds += 1;
    const spreadResults = await pool(
      [...Array(SPREAD_REQUESTS).keys()],
      6,
      async (i) => (await api(site, 'GET', i % 2 ? '/api/prices' : `/api/plots/${plotId}`)).status,
    );
    check(
      spreadResults.every((s) => s === 200),
      `every spread request answered 200 (${spreadResults.filter((s) => s !== 200).length} did not)`,
    );
    served = servedSince();
  } while (rounds < SPREAD_ROUNDS && served.some((r) => r.n === 0));
  console.log(`replica spread (${rounds} round(s) of ${SPREAD_REQUESTS} GETs through the gateway: half /api/plots/:id, half /api/prices):`);
  for (const { replica, route, n } of served) {
    console.log(`  ${replica.padEnd(40)} ${route.padEnd(12)} ${String(n).padStart(4)} requests`);
    check(n > 0, `${replica} got none of the requests`);
  }

  // ---- 6. a plots replica killed under traffic
  step(6, 'podman kill a plots replica under traffic');
  const buyers = await pool(moreSpots.slice(0, KILL_BUYERS), 6, (spot) => buyAndPay(site, 'basic', spot));
  log(`${buyers.length} buyers paid (test checkout); claiming with 6 at a time while 3 visitors read`);
  const kill = await killUnderTraffic(stack, site, buyers);
  console.log(
    `kill result: ${kill.victim} killed (SIGKILL) with ${kill.doneAtKill}/${buyers.length} claims done\n` +
      `  requests sent ${kill.sent}, ok ${kill.ok}, failed ${kill.failed} (claims answered 5xx or cut off: ${kill.claimFailures}, each retried by its buyer and then ok; reads failed: ${kill.readFailures})\n` +
      `  every buyer has a plot: ${kill.buyersWithPlot}/${buyers.length}; effects applied twice (checked in PostgreSQL): ${kill.doubles}\n` +
      `  the killed replica afterwards: ${kill.victimAfter}` +
      kill.failedReads.map((line) => `\n  read failed: ${line}`).join(''),
  );
  check(kill.readFailures === 0, 'no read was lost (the gateway retries GETs on another replica)');
  check(kill.buyersWithPlot === buyers.length, 'every paid buyer ended with a plot');
  check(kill.doubles === 0, 'no effect applied twice');
  // podman kill, like docker kill, counts as a manual stop: the restart policy leaves the replica down. An operator's
  // `up -d` brings the service back to its scale.
  const backStarted = Date.now();
  await stack.up(SCALE_ARGS, log);
  await stack.waitHealthy(SCALED, 300_000);
  log(
    `docker-compose up -d ${SCALE_ARGS.join(' ')}: ${kill.victim} back and healthy in ${((Date.now() - backStarted) / 1000).toFixed(1)} s`,
  );

  // ---- 7. Prometheus: every replica up, the alert rules loaded
  step(7, 'monitoring profile: Prometheus targets and alert rules');
  const prometheus = `http://127.0.0.1:${vars.PROMETHEUS_PORT}`;
  const expected = Object.fromEntries(APP_SERVICES.map((s) => [s, SCALED[s as keyof typeof SCALED]]));
  let seen = 'no answer yet';
  const targets = await eventuallyValue(
    async () => {
      const body = (await (await fetch(`${prometheus}/api/v1/targets?state=active`)).json()) as {
        data: { activeTargets: Array<{ labels: { job: string; instance: string }; health: string; lastError: string }> };
      };
      const byJob = body.data.activeTargets.filter((t) => t.labels.job !== 'prometheus');
      seen = byJob.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health}${t.lastError ? ` (${t.lastError})` : ''}`).join('; ');
      const ok = APP_SERVICES.every(
        (job) =>
          byJob.filter((t) => t.labels.job === job && t.health === 'up').length === expected[job] &&
          byJob.filter((t) => t.labels.job === job).length === expected[job],
      );
      return ok ? byJob : null;
    },
    120_000,
    3000,
  ).catch((error: Error) => {
    throw new Error(`Prometheus did not see every replica up (${error.message}); last seen: ${seen}`);
  });
  console.log('Prometheus targets:');
  for (const t of targets.sort((a, b) => a.labels.job.localeCompare(b.labels.job) || a.labels.instance.localeCompare(b.labels.instance))) {
    console.log(`  ${t.labels.job.padEnd(11)} ${t.labels.instance.padEnd(20)} ${t.health}`);
  }
  const rules = (await (await fetch(`${prometheus}/api/v1/rules`)).json()) as {
    data: { groups: Array<{ name: string; file: string; rules: Array<{ name: string; health: string; type: string }> }> };
  };
  const allRules = rules.data.groups.flatMap((g) => g.rules);
  const alerting = allRules.filter((r) => r.type === 'alerting');
  const alertNames = [...readFileSync(path.join(ROOT, 'deploy/alerts.yml'), 'utf8').matchAll(/^\s*- alert: (\S+)/gm)].map((m) => m[1]);
  console.log(
    `alert rules loaded: ${alerting.length} in ${rules.data.groups.length} groups (${rules.data.groups.map((g) => g.name).join(', ')}), deploy/alerts.yml defines ${alertNames.length}; rule health: ${[...new Set(allRules.map((r) => r.health))].join(', ')}`,
  );
  check(alertNames.length > 0 && alertNames.every((n) => alerting.some((r) => r.name === n)), 'every alert of deploy/alerts.yml is loaded');
  check(
    allRules.every((r) => r.health !== 'err'),
    'no rule fails to evaluate',
  );

  // ---- 7b. the backup service: the stanza created, WAL archived by postgres, a base backup in the repository
  step(7, 'backup: pgBackRest took a base backup and WAL reaches the repository');
  const backupInfo = await eventuallyValue(
    async () => {
      const [container] = stack.replicas('backup');
      if (!container) return null;
      const [info] = JSON.parse(stack.exec(container.id, ['pgbackrest', '--stanza=pixel-atlas', '--output=json', 'info'])) as Array<{
        backup?: Array<{ label: string; type: string; timestamp: { start: number; stop: number } }>;
        archive?: Array<{ max: string | null }>;
      }>;
      return info?.backup?.length && info.archive?.at(-1)?.max ? info : null;
    },
    180_000,
    3000,
  );
  const firstBackup = backupInfo.backup![0]!;
  log(
    `backup ${firstBackup.label} (${firstBackup.type}, ${firstBackup.timestamp.stop - firstBackup.timestamp.start} s) in the backup-repo volume; newest archived WAL ${backupInfo.archive!.at(-1)!.max}`,
  );

  // ---- 8. the whole stack restarted: data on the named volumes
  step(8, 'restart the whole stack (down, up): the data is on the named volumes');
  const plotsBefore = stack.count('SELECT count(*) AS n FROM plots.plots');
  await stack.compose(['down', '--timeout', '10']);
  check(stack.containers().length === 0, 'down removed every container');
  const volumes = run(PODMAN[0], [...PODMAN.slice(1), 'volume', 'ls', '--format', '{{.Name}}'], { quiet: true })
    .split('\n')
    .filter((v) => v.startsWith(`${projectName}_`));
  log(`containers removed; volumes kept: ${volumes.join(', ')}`);
  const restartStarted = Date.now();
  await stack.up(SCALE_ARGS, log);
  await stack.waitHealthy(SCALED, 300_000);
  log(`up again and healthy in ${((Date.now() - restartStarted) / 1000).toFixed(1)} s`);
  const plotsAfter = stack.count('SELECT count(*) AS n FROM plots.plots');
  const again = await api(site, 'GET', `/api/plots/${plotId}`);
  console.log(
    `data after restart: ${plotsAfter} plots in PostgreSQL (before: ${plotsBefore}); GET /api/plots/${plotId} -> ${again.status}`,
  );
  check(plotsAfter === plotsBefore && again.status === 200, 'the plots survived the restart');

  // ---- 9. the nats-cluster profile: the services on three nodes, the stream with three replicas, a claim through them
  step(9, 'NATS cluster profile (down, up with three nodes): the stream R3, a claim end to end');
  const clusterStarted = Date.now();
  await stack.compose(['down', '--timeout', '10']);
  const cluster = { NATS_URL: NATS_CLUSTER_NODES.map((n) => `nats://${n}:4222`).join(','), NATS_STREAM_REPLICAS: '3' };
  Object.assign(vars, cluster);
  Object.assign(stack.env, cluster);
  writeEnvFile();
  stack.profiles.push('nats-cluster');
  await stack.up([], log);
  await stack.waitHealthy({ ...ONE_EACH, ...Object.fromEntries(NATS_CLUSTER_NODES.map((n) => [n, 1])) }, 300_000);
  log(`up on the cluster and healthy in ${((Date.now() - clusterStarted) / 1000).toFixed(1)} s`);
  const streamOnCluster = NATS_CLUSTER_NODES.map((node) => {
    const [container] = stack.replicas(node);
    check(container, `${node} runs`);
    const jsz = JSON.parse(
      stack.exec(container.id, ['wget', '-qO-', 'http://127.0.0.1:8222/jsz?accounts=true&streams=true&config=true']),
    ) as {
      account_details?: Array<{
        stream_detail?: Array<{ name: string; config?: { num_replicas?: number }; cluster?: { leader?: string; replicas?: unknown[] } }>;
      }>;
    };
    const detail = jsz.account_details?.flatMap((a) => a.stream_detail ?? []).find((d) => d.name === 'PIXEL_ATLAS');
    return { node, replicas: detail?.config?.num_replicas, leader: detail?.cluster?.leader, peers: detail?.cluster?.replicas?.length };
  });
  log(
    `stream PIXEL_ATLAS as each node sees it: ${streamOnCluster.map((s) => `${s.node}: R${s.replicas}, leader ${s.leader}, ${s.peers} other copies`).join('; ')}`,
  );
  check(
    streamOnCluster.every((s) => s.replicas === 3 && s.leader && s.peers === 2),
    'every node holds a copy of the stream, declared with three replicas, with a leader',
  );
  const [clusterSpot] = freeSpots(stack, land, 1);
  check(clusterSpot, 'a free land tile for the claim on the cluster');
  const clusterBuyer = await buyAndPay(site, 'basic', clusterSpot);
  const clusterClaim = await claimPlot(site, clusterBuyer);
  check(clusterClaim.status === 201, `claim on the cluster answered ${clusterClaim.status} ${JSON.stringify(clusterClaim.body)}`);
  // payments.payment.verified reached plots (the claim needed the entitlement); plots.plot.claimed reaches payments.
  await eventuallyValue(
    async () =>
      stack.count(`SELECT count(*) AS n FROM payments.used_sessions WHERE session_id = '${clusterBuyer.sessionId}'`) === 1 ? true : null,
    60_000,
  );
  log(
    `claimed plot ${clusterClaim.body.plot.id} on the cluster; payments recorded its session used (events both ways through the three nodes); step took ${((Date.now() - clusterStarted) / 1000).toFixed(1)} s`,
  );

  // ---- 10. teardown (also runs on failure)
  step(10, 'tear down');
}

/** Free 1×1 land tiles (no plot or hold there), scanning row by row. */
function freeSpots(stack: ComposeStack, land: Set<string>, count: number) {
  const taken = stack
    .sql<{ x: string; y: string; size: string }>('SELECT x, y, size FROM plots.footprints')
    .map((r) => ({ x: +r.x, y: +r.y, size: +r.size }));
  const out: Array<{ x: number; y: number }> = [];
  for (let y = 0; y < 90 && out.length < count; y++) {
    for (let x = 0; x < 90 && out.length < count; x++) {
      if (land.has(`${x},${y}`) && !taken.some((t) => x >= t.x && x < t.x + t.size && y >= t.y && y < t.y + t.size)) out.push({ x, y });
    }
  }
  check(out.length === count, `${count} free land tiles`);
  return out;
}

async function eventuallyValue<T>(probe: () => Promise<T | null>, timeoutMs: number, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== null) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

/**
 * Buyers claim (retrying what failed with a 5xx or a cut connection, as the site's client does) while visitors
 * read; a plots replica is SIGKILLed once a quarter of the claims are in. Then PostgreSQL is asked whether any
 * effect happened twice: a session with two plots, a payment used twice, a claim event published twice.
 */
async function killUnderTraffic(stack: ComposeStack, site: { gateway: { url: string } }, buyers: PaidSession[]) {
  const victim = stack.replicas('plots').at(-1)!;
  let sent = 0;
  let ok = 0;
  let claimFailures = 0;
  const failedReads: string[] = [];
  let done = 0;
  let doneAtKill = -1;
  const claimedIds = new Map<string, string>();
  const kill = (async () => {
    while (done < buyers.length / 4) await sleep(20);
    doneAtKill = done;
    run(PODMAN[0], [...PODMAN.slice(1), 'kill', '--signal', 'KILL', victim.id], { quiet: true });
  })();
  let buyersDone = false;
  const reader = async (n: number) => {
    for (let i = 0; !buyersDone; i++) {
      const ids = [...claimedIds.values()];
      const pathname =
        i % 3 === 0 && ids.length
          ? `/api/plots/${ids[(i + n) % ids.length]}`
          : i % 3 === 1
            ? // KILL_BUYERS buyers, so the modulo is in range
              `/api/position-available?x=${buyers[i % buyers.length]!.x}&y=${buyers[i % buyers.length]!.y}&tier=basic`
            : '/api/plots';
      const response = await api(site, 'GET', pathname);
      sent += 1;
      if (response.status === 200) ok += 1;
      else {
        const code = (response.body as { error?: { code?: string } } | null)?.error?.code;
        failedReads.push(
          `${pathname} -> ${response.status || response.networkError}${code ? ` ${code}` : ''} (request ${response.requestId ?? 'none'})`,
        );
      }
    }
  };
  const readers = [reader(0), reader(1), reader(2)];
  await pool(buyers, 6, async (buyer) => {
    for (let attempt = 0; attempt < 60; attempt++) {
      const response = await claimPlot(site, buyer);
      sent += 1;
      if (response.status === 200 || response.status === 201) {
        ok += 1;
        claimedIds.set(buyer.sessionId, response.body.plot.id);
        done += 1;
        return;
      }
      if (response.status !== 0 && response.status < 500)
        throw new Error(`claim refused: ${response.status} ${JSON.stringify(response.body)}`);
      claimFailures += 1;
      await sleep(250);
    }
    throw new Error(`claim for ${buyer.sessionId} never succeeded`);
  });
  await kill;
  buyersDone = true;
  await Promise.all(readers);

  const sessions = buyers.map((b) => `'${b.sessionId.replace(/'/g, "''")}'`).join(',');
  const plotsPerSession = stack.sql<{ n: string }>(
    `SELECT count(*) AS n FROM plots.plots WHERE stripe_session_id IN (${sessions}) GROUP BY stripe_session_id HAVING count(*) > 1`,
  );
  const withPlot = stack.count(`SELECT count(DISTINCT stripe_session_id) AS n FROM plots.plots WHERE stripe_session_id IN (${sessions})`);
  const matching = [...claimedIds].filter(
    ([session, id]) =>
      stack.sql<{ id: string }>(`SELECT id::text AS id FROM plots.plots WHERE stripe_session_id = '${session}'`)[0]?.id === id,
  ).length;
  await eventuallyValue(
    async () =>
      stack.count(`SELECT count(*) AS n FROM payments.used_sessions WHERE session_id IN (${sessions})`) === buyers.length ? true : null,
    60_000,
  );
  const usedTwice = stack.sql(
    `SELECT session_id FROM payments.used_sessions WHERE session_id IN (${sessions}) GROUP BY session_id HAVING count(*) > 1`,
  ).length;
  const claimEventsTwice = stack.sql(
    `SELECT payload->'data'->>'sessionId' AS session FROM plots.outbox_events WHERE subject LIKE '%plots.plot.claimed' GROUP BY 1 HAVING count(*) > 1`,
  ).length;
  const victimAfter = stack.containers().find((c) => c.id === victim.id);
  return {
    victim: victim.name,
    doneAtKill,
    sent,
    ok,
    failed: sent - ok,
    claimFailures,
    readFailures: failedReads.length,
    failedReads,
    buyersWithPlot: matching === buyers.length ? withPlot : matching,
    doubles: plotsPerSession.length + usedTwice + claimEventsTwice,
    victimAfter: victimAfter
      ? victimAfter.running
        ? 'running again'
        : 'stopped (a manual kill: the restart policy leaves it down)'
      : 'gone',
  };
}

main()
  .then(async () => {
    await cleanUp();
    console.log(`\ntest:compose passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  })
  .catch(async (error) => {
    console.error(`\ntest:compose FAILED: ${(error as Error).stack ?? error}`);
    reportContainers();
    await cleanUp();
    process.exit(1);
  });
