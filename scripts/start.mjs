#!/usr/bin/env node
// `npm start`: one command that runs the whole site on this machine.
//   infra (PostgreSQL, embedded when nothing runs; our own nats-server with one user per service) -> database pixel_atlas -> prisma generate -> web build
//   -> every service in services/*/src/server.ts as a child process, the gateway last -> wait for each /readyz.
// Ctrl-C / SIGTERM stops the gateway, then the services (each signalled directly and awaited), then the infra this
// script started. A second Ctrl-C kills what is left.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { ensureDatabase, ensureInfra, InfraError, redact, withDatabase } from './lib/infra.mjs';
import {
  ROOT,
  buildWeb,
  discoverServices,
  randomPassword,
  randomToken,
  readOrCreateSecret,
  runGenerate,
} from './lib/workspace.mjs';

process.chdir(ROOT);

const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const COLORS = [36, 35, 33, 32, 34, 91, 96, 95];
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
const say = (message) => console.log(`${paint(1, '[start]')} ${message}`);

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS = { 40: 33, 50: 31, 60: 31 };
const rawLogs = ['1', 'true'].includes(String(process.env.PA_RAW_LOGS || ''));

/** Makes a pino JSON line readable (`INFO message {extra}`); anything else passes through unchanged. */
function formatLine(line) {
  if (rawLogs || !line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('level' in entry)) return line;
  const { level, msg, time: _time, pid: _pid, hostname: _host, v: _v, err, ...rest } = entry;
  const name = LEVELS[level] ?? String(level).toUpperCase();
  let text = `${paint(LEVEL_COLORS[level] ?? 2, name.padEnd(5))} ${msg ?? ''}`;
  if (Object.keys(rest).length) text += ` ${paint(2, JSON.stringify(rest))}`;
  if (err?.stack) text += `\n${err.stack}`;
  else if (err) text += ` ${JSON.stringify(err)}`;
  return text;
}

const children = new Map(); // name -> { child, exited: Promise<{code, signal}>, done: boolean }
let infra;
let shuttingDown = false;
let firstSignalAt = 0;

function startChild(service, env, width, color) {
  const child = spawn(process.execPath, ['--import', 'tsx', service.entry], {
    cwd: ROOT,
    env,
    // Own process group: a Ctrl-C in the terminal reaches this script only, which then signals each child itself,
    // in order (gateway first, infra last).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = paint(color, `[${service.name}]`.padEnd(width + 2));
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      for (const part of formatLine(line).split('\n')) process.stdout.write(`${prefix} ${part}\n`);
    });
  }
  const record = { child, done: false };
  record.exited = new Promise((resolve) => {
    child.once('error', (err) => {
      record.done = true;
      resolve({ code: 1, signal: null, error: err });
    });
    child.once('exit', (code, signal) => {
      record.done = true;
      resolve({ code, signal });
    });
  });
  record.exited.then(({ code, signal, error }) => {
    if (shuttingDown) return;
    const how = error ? `could not start (${error.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`;
    say(paint(31, `${service.name} ${how}; stopping everything`));
    shutdown(typeof code === 'number' && code !== 0 ? code : 1);
  });
  children.set(service.name, record);
  return record;
}

async function waitReady(service, record, timeoutMs) {
  const url = `http://127.0.0.1:${service.port}/readyz`;
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (record.done || shuttingDown) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${service.name} was not ready at ${url} after ${Math.round(timeoutMs / 1000)} s (last: ${last})`);
}

async function stopChild(name, graceMs = 20_000) {
  const record = children.get(name);
  if (!record || record.done) return;
  try {
    record.child.kill('SIGTERM');
  } catch {
    // gone
  }
  const timer = setTimeout(() => {
    say(`${name} did not stop within ${graceMs / 1000} s; killing it`);
    try {
      record.child.kill('SIGKILL');
    } catch {
      // gone
    }
  }, graceMs);
  await record.exited;
  clearTimeout(timer);
}

let shutdownPromise;
function shutdown(exitCode) {
  if (shutdownPromise) return shutdownPromise;
  shuttingDown = true;
  shutdownPromise = (async () => {
    if (children.size) say('stopping services…');
    if (children.has('gateway')) await stopChild('gateway');
    await Promise.all([...children.keys()].filter((n) => n !== 'gateway').map((n) => stopChild(n)));
    if (infra) await infra.stop();
    say('stopped');
    process.exit(exitCode);
  })();
  return shutdownPromise;
}

function onSignal(signal) {
  const now = Date.now();
  if (!shuttingDown) {
    firstSignalAt = now;
    say(`${signal} received`);
    shutdown(0);
    return;
  }
  // npm forwards the terminal's Ctrl-C as well: only a second press, a moment later, forces the stop.
  if (now - firstSignalAt < 1000) return;
  say('forced stop: killing services');
  for (const { child, done } of children.values()) if (!done) child.kill('SIGKILL');
  (infra ? infra.stop() : Promise.resolve()).finally(() => process.exit(130));
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
process.on('exit', () => {
  for (const { child, done } of children.values()) if (!done) child.kill('SIGKILL');
});

async function main() {
  const nodeEnv = process.env.NODE_ENV || 'development';
  const services = discoverServices(ROOT);

  infra = await ensureInfra({ root: ROOT, log: (m) => say(m) });
  if (shuttingDown) return;

  const databaseUrl = process.env.DATABASE_URL || withDatabase(infra.postgresUrl, 'pixel_atlas');
  try {
    if (await ensureDatabase(databaseUrl)) say(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  } catch (err) {
    if (!process.env.DATABASE_URL) throw err;
    say(`could not check/create the database of DATABASE_URL (${err.message}); continuing`);
  }

  await runGenerate(ROOT, { log: say });
  await buildWeb(ROOT, { log: say });
  if (shuttingDown) return;

  const internalToken =
    process.env.INTERNAL_TOKEN || readOrCreateSecret(path.join(ROOT, '.data', 'internal-token'), () => randomToken()).value;

  let admin;
  if (!process.env.ADMIN_USERNAME && !process.env.ADMIN_PASSWORD && nodeEnv !== 'production') {
    const password = readOrCreateSecret(path.join(ROOT, '.data', 'admin-password'), randomPassword).value;
    admin = { username: 'admin', password };
  }

  const common = {
    ...process.env,
    NODE_ENV: nodeEnv,
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    DATABASE_URL: databaseUrl,
    NATS_URL: infra.natsUrl,
    INTERNAL_TOKEN: internalToken,
  };
  // Each service connects to NATS as its own user (its name), allowed only its own subjects. With NATS_URL given,
  // the passwords come from NATS_PASSWORD_<SERVICE>; a NATS_USER/NATS_PASSWORD of this shell is nobody's.
  for (const key of Object.keys(common)) if (key === 'NATS_USER' || key.startsWith('NATS_PASSWORD')) delete common[key];
  const natsCredentials = (name) => {
    const password = infra.natsPasswords?.[name] ?? process.env[`NATS_PASSWORD_${name.toUpperCase()}`];
    return password ? { NATS_USER: name, NATS_PASSWORD: password } : {};
  };
  const width = Math.max(...services.map((s) => s.name.length));
  const readyTimeout = Number(process.env.PA_READY_TIMEOUT_MS || 120_000);
  const backends = services.filter((s) => s.name !== 'gateway');
  const gateway = services.find((s) => s.name === 'gateway');
  if (!gateway) throw new Error('services/gateway/src/server.ts is missing');

  const gatewayPort = String(process.env.PORT || gateway.port);
  say(`starting ${backends.map((s) => s.name).join(', ')}…`);
  const started = backends.map((service, i) => {
    const env = { ...common, ...natsCredentials(service.name), HOST: '127.0.0.1', PORT: String(service.port) };
    // Links services build for people (Stripe's return URL, e-mails) point at the gateway.
    env.PUBLIC_ORIGIN ||= `http://localhost:${gatewayPort}`;
    delete env.ADMIN_USERNAME;
    delete env.ADMIN_PASSWORD;
    return [service, startChild(service, env, width, COLORS[i % COLORS.length])];
  });
  for (const [service, record] of started) {
    if (!(await waitReady(service, record, readyTimeout))) return;
    say(`${service.name} is ready on 127.0.0.1:${service.port}`);
  }

  const gatewayEnv = { ...common, ...natsCredentials('gateway'), PORT: gatewayPort };
  gatewayEnv.WEB_DIST_DIR ||= path.join(ROOT, 'web', 'dist');
  for (const s of backends) gatewayEnv[s.upstreamEnv] ||= `http://127.0.0.1:${s.port}`;
  if (admin) {
    gatewayEnv.ADMIN_USERNAME = admin.username;
    gatewayEnv.ADMIN_PASSWORD = admin.password;
  }
  const gatewayRecord = startChild({ ...gateway, port: Number(gatewayEnv.PORT) }, gatewayEnv, width, COLORS[backends.length % COLORS.length]);
  if (!(await waitReady({ ...gateway, port: Number(gatewayEnv.PORT) }, gatewayRecord, readyTimeout))) return;

  const url = `http://localhost:${gatewayEnv.PORT}`;
  console.log('');
  console.log(paint(1, `Pixel Atlas is running at ${url}`));
  if (admin) {
    console.log(`  Admin sign-in at ${url}/admin  user: ${admin.username}  password: ${admin.password}  (kept in .data/admin-password)`);
  }
  console.log(`  Database ${redact(databaseUrl)}, NATS ${infra.natsUrl}. Press Ctrl-C to stop.`);
  console.log('');
}

main().catch((err) => {
  if (err instanceof InfraError) console.error(err.message);
  else console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  shutdown(1);
});
