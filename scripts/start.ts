// `npm start`: one command that runs the whole site on this machine.
//   infra (PostgreSQL, embedded when nothing runs; our own nats-server with one user per service) -> database pixel_atlas
//   -> prisma generate -> web build -> the events setup step (the event stream and its durable consumers, declared as
//   the events-admin NATS user) -> every service and the gateway as processes, started as the test stack starts
//   them (startServices) but on fixed ports and this machine's database and NATS -> wait for each /readyz.
// Ctrl-C / SIGTERM stops the gateway, then the services (each signalled directly and awaited), then the infra this
// script started. A second Ctrl-C kills what is left.
import path from 'node:path';
import { prettyFactory } from 'pino-pretty';
import { BACKEND_NAMES, SERVICE_NAMES, SERVICES, type ServiceName } from '@pixel-atlas/contracts/services';
import type { ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { EVENTS_ADMIN_USER, natsPasswordEnvName } from '@pixel-atlas/service-kit/nats-auth';
import { runEventsSetup } from '@pixel-atlas/service-kit/events-setup';
import { startServices, type Services } from '@pixel-atlas/test-stack/services';
import { ensureDatabase, ensureInfra, InfraError, redact, withDatabase, type Infra } from './lib/infra.ts';
import { ROOT, buildWeb, randomPassword, randomToken, readOrCreateSecret, runGenerate } from './lib/workspace.ts';

process.chdir(ROOT);

const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const COLORS = [36, 35, 33, 32, 34, 91];
const paint = (code: number, text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
const say = (message: string) => console.log(`${paint(1, '[start]')} ${message}`);

const width = Math.max(...SERVICE_NAMES.map((name) => name.length));
const prefixes = new Map(SERVICE_NAMES.map((name, i) => [name, paint(COLORS[i % COLORS.length]!, `[${name}]`.padEnd(width + 2))]));
const rawLogs = ['1', 'true'].includes(process.env.PA_RAW_LOGS ?? '');
/** Fastify's request lines as `incoming request GET /api/plots`, `request completed 200 in 12 ms`. */
function requestMessage(log: Record<string, unknown>, messageKey: string): string {
  const raw = log[messageKey] ?? '';
  const message = typeof raw === 'string' ? raw : JSON.stringify(raw);
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  if (req?.method) return `${message} ${req.method} ${req.url}`;
  if (res?.statusCode) return `${message} ${res.statusCode} in ${Math.round(Number(log.responseTime))} ms`;
  return message;
}
// The prefix already names the service; time, pid and host say nothing on one machine.
const pretty = prettyFactory({
  colorize: useColor,
  ignore: 'pid,hostname,time,service,req,res,responseTime',
  singleLine: true,
  messageFormat: requestMessage,
});

/** A service's line, pino's JSON made readable (`INFO: message {extra}`; anything else as it came), prefixed with its name. */
function printLine(name: ServiceName, line: string) {
  const text = rawLogs ? line : pretty(line).trimEnd();
  for (const part of text.split('\n')) process.stdout.write(`${prefixes.get(name)} ${part}\n`);
}

let infra: Infra | undefined;
/** The services' start, from its beginning: a stop during it cancels it, and waits for it. */
let servicesStart: Promise<Services> | undefined;
const cancelStart = new AbortController();
let shuttingDown = false;
let firstSignalAt = 0;

/** SIGTERM, then SIGKILL after graceMs. */
async function stopGracefully(service: ServiceProcess, graceMs = 20_000) {
  const timer = setTimeout(() => {
    say(`${service.name} did not stop within ${graceMs / 1000} s; killing it`);
    void service.stop('SIGKILL');
  }, graceMs);
  await service.stop('SIGTERM');
  clearTimeout(timer);
}

let shutdownPromise: Promise<void> | undefined;
function shutdown(exitCode: number): Promise<void> {
  shutdownPromise ??= (async () => {
    shuttingDown = true;
    cancelStart.abort();
    const services = await servicesStart?.catch(() => undefined);
    if (services) {
      say('stopping services…');
      await stopGracefully(services.gateway);
      await Promise.all(
        Object.values(services.replicas)
          .flat()
          .map((s) => stopGracefully(s)),
      );
    }
    if (infra) await infra.stop();
    say('stopped');
    process.exit(exitCode);
  })();
  return shutdownPromise;
}

function onSignal(signal: NodeJS.Signals) {
  const now = Date.now();
  if (!shuttingDown) {
    firstSignalAt = now;
    say(`${signal} received`);
    void shutdown(0);
    return;
  }
  // npm forwards the terminal's Ctrl-C as well: only a second press, a moment later, forces the stop.
  if (now - firstSignalAt < 1000) return;
  say('forced stop: killing services');
  // Services still starting are killed by the kit when this process exits.
  void servicesStart?.then((services) => services.processes().forEach((s) => void s.stop('SIGKILL'))).catch(() => undefined);
  void (infra ? infra.stop() : Promise.resolve()).finally(() => process.exit(130));
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

/** A service that stops on its own once the site runs takes the whole site down, loudly. */
function watchForExits(services: Services) {
  for (const service of services.processes()) {
    service.child.once('exit', (code, signal) => {
      if (shuttingDown) return;
      say(paint(31, `${service.name} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}; stopping everything`));
      void shutdown(typeof code === 'number' && code !== 0 ? code : 1);
    });
  }
}

async function main() {
  const nodeEnv = process.env.NODE_ENV || 'development';

  infra = await ensureInfra({ root: ROOT, log: say });
  if (shuttingDown) return;

  const databaseUrl = process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas');
  try {
    if (await ensureDatabase(databaseUrl)) say(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  } catch (err) {
    if (!process.env.DATABASE_URL) throw err;
    say(`could not check/create the database of DATABASE_URL (${err instanceof Error ? err.message : String(err)}); continuing`);
  }

  await runGenerate(ROOT, { log: say });
  await buildWeb(ROOT, { log: say });
  if (shuttingDown) return;

  const internalToken =
    process.env.INTERNAL_TOKEN || readOrCreateSecret(path.join(ROOT, '.data', 'internal-token'), () => randomToken()).value;

  let admin: { username: string; password: string } | undefined;
  if (!process.env.ADMIN_USERNAME && !process.env.ADMIN_PASSWORD && nodeEnv !== 'production') {
    admin = { username: 'admin', password: readOrCreateSecret(path.join(ROOT, '.data', 'admin-password'), randomPassword).value };
  }
  const gatewayPort = Number(process.env.PORT || SERVICES.gateway.port);
  const publicOrigin = process.env.PUBLIC_ORIGIN || `http://localhost:${gatewayPort}`;

  // Every process gets this shell's environment under its own: what is nobody's, or only the gateway's, goes.
  // Each service connects to NATS as its own user (its name), allowed only its own subjects. With NATS_URL given,
  // the passwords come from NATS_PASSWORD_<SERVICE>; a NATS_USER/NATS_PASSWORD of this shell is nobody's.
  const shellEnv = { ...process.env };
  const gatewayOnly = {
    HOST: process.env.HOST ?? '0.0.0.0',
    WEB_DIST_DIR: process.env.WEB_DIST_DIR || path.join(ROOT, 'web', 'dist'),
    ...(admin ? { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password } : pick(shellEnv, ['ADMIN_USERNAME', 'ADMIN_PASSWORD'])),
  };
  for (const key of Object.keys(process.env)) {
    if (key === 'NATS_USER' || key.startsWith('NATS_PASSWORD') || key === 'ADMIN_USERNAME' || key === 'ADMIN_PASSWORD') {
      delete process.env[key];
    }
  }
  const natsCredentials = (name: ServiceName): Record<string, string> => {
    const password = infra?.natsPasswords?.[name] ?? shellEnv[`NATS_PASSWORD_${name.toUpperCase()}`];
    return password ? { NATS_USER: name, NATS_PASSWORD: password } : {};
  };
  const serviceEnv = Object.fromEntries(SERVICE_NAMES.map((name) => [name, natsCredentials(name)]));
  serviceEnv.gateway = { ...serviceEnv.gateway, ...gatewayOnly };

  // The stream belongs to no service: the events setup step declares it (and every durable consumer) as its own user.
  const adminPassword = infra.natsPasswords?.[EVENTS_ADMIN_USER] ?? shellEnv[natsPasswordEnvName(EVENTS_ADMIN_USER)];
  if (!adminPassword) {
    say(`${natsPasswordEnvName(EVENTS_ADMIN_USER)} is not set: the events setup step is left to whoever runs NATS_URL's broker`);
  } else {
    const stream = process.env.NATS_STREAM || 'PIXEL_ATLAS';
    const done = await runEventsSetup({
      servers: infra.natsUrl,
      stream,
      subjectPrefix: process.env.NATS_SUBJECT_PREFIX || '',
      user: EVENTS_ADMIN_USER,
      password: adminPassword,
    });
    say(`event stream ${stream} ${done.stream}, ${done.consumers} durable consumers declared (as ${EVENTS_ADMIN_USER})`);
  }
  if (shuttingDown) return;

  say(`starting ${BACKEND_NAMES.join(', ')} and the gateway…`);
  servicesStart = startServices({
    env: {
      NODE_ENV: nodeEnv,
      LOG_LEVEL: process.env.LOG_LEVEL || 'info',
      DATABASE_URL: databaseUrl,
      NATS_URL: infra.natsUrl,
      INTERNAL_TOKEN: internalToken,
      // Links services build for people (Stripe's return URL, e-mails, page links) point at the gateway.
      PUBLIC_ORIGIN: publicOrigin,
    },
    serviceEnv,
    // Each on its port of @pixel-atlas/contracts/services (docs/operations.md lists them); the gateway on PORT.
    ports: { ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, SERVICES[name].port])), gateway: gatewayPort },
    readyTimeoutMs: Number(process.env.PA_READY_TIMEOUT_MS || 120_000),
    onLine: printLine,
    detached: true,
    signal: cancelStart.signal,
  });
  const services = await servicesStart;
  if (shuttingDown) return;
  watchForExits(services);
  for (const name of BACKEND_NAMES) say(`${name} is ready on ${services.replicas[name].map((s) => `127.0.0.1:${s.port}`).join(', ')}`);

  const url = `http://localhost:${gatewayPort}`;
  console.log('');
  console.log(paint(1, `Pixel Atlas is running at ${url}`));
  if (admin) {
    console.log(`  Admin sign-in at ${url}/admin  user: ${admin.username}  password: ${admin.password}  (kept in .data/admin-password)`);
  }
  console.log(`  Database ${redact(databaseUrl)}, NATS ${infra.natsUrl}. Press Ctrl-C to stop.`);
  console.log('');
}

function pick(source: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.flatMap((key) => (source[key] === undefined ? [] : [[key, source[key]]])));
}

main().catch((err: unknown) => {
  if (shuttingDown) return;
  if (err instanceof InfraError) console.error(err.message);
  else console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  void shutdown(1);
});
