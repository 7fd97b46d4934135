import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ConnectionOptions } from '@nats-io/nats-core';
import { freePort } from './free-port.ts';
import { EVENTS_ADMIN_USER, natsInboxPrefix, serviceUsers, writeNatsServerConfig, type NatsUserName } from './nats-auth.ts';

async function waitForPort(port: number, failed: () => string | null, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const problem = failed();
    if (problem) throw new Error(`nats-server on ${port}: ${problem}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing listening on ${port} after ${timeoutMs} ms`);
}

async function waitForPortClosed(port: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (!open) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Kills the broker's whole process group (the shell that holds it, and the broker). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// Brokers still running when the test process exits normally go with it (other endings: see `resume`).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) killGroup(child);
});

/** The test's own user on its broker: may do anything (stand-ins for other services, reading the stream). */
export const TEST_OPERATOR_USER = 'test-operator';

/**
 * A private, authenticated nats-server with JetStream on a spare port: every test file gets its own (through
 * `createTestStream()`, or directly for tests that stop and restart the broker). Its users are the production
 * permission set of nats-auth.ts for its one stream and subject prefix, so a service that strays from its grants
 * fails its tests; plus TEST_OPERATOR_USER. The service users share one password here (tests run every service
 * with one env); each has its own in production, as the operations step's user (EVENTS_ADMIN_USER) has here too.
 * Its store survives `stop()` so a restart keeps the streams.
 */
export class TestNatsServer {
  private child: ChildProcess | null = null;
  readonly servicePassword = randomBytes(12).toString('hex');
  readonly operatorPassword = randomBytes(12).toString('hex');
  readonly eventsAdminPassword = randomBytes(12).toString('hex');

  private constructor(
    readonly port: number,
    private readonly dir: string,
    /** The one stream (and subject prefix) the service users are granted. */
    readonly stream: string,
    readonly subjectPrefix: string,
  ) {}

  static async start(): Promise<TestNatsServer> {
    const token = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pa-nats-'));
    const server = new TestNatsServer(await freePort(), dir, token.toUpperCase(), `${token}.`);
    await writeNatsServerConfig(server.configFile, {
      listen: `127.0.0.1:${server.port}`,
      storeDir: server.storeDir,
      users: [
        ...serviceUsers({ prefix: server.subjectPrefix, stream: server.stream }, (user) => ({
          value: user === EVENTS_ADMIN_USER ? server.eventsAdminPassword : server.servicePassword,
        })),
        { user: TEST_OPERATOR_USER, password: { value: server.operatorPassword } },
      ],
    });
    await server.resume();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** The JetStream store (a test may delete it while the server is stopped: it comes back empty). */
  get storeDir(): string {
    return path.join(this.dir, 'store');
  }

  private get configFile(): string {
    return path.join(this.dir, 'nats-server.conf');
  }

  /**
   * Options for `connect()` as a service's user or the operations step's (their grants only) or, by default, as the
   * test operator.
   */
  connectOptions(user: NatsUserName | typeof TEST_OPERATOR_USER = TEST_OPERATOR_USER): ConnectionOptions {
    if (user === TEST_OPERATOR_USER) return { servers: this.url, user, pass: this.operatorPassword };
    const pass = user === EVENTS_ADMIN_USER ? this.eventsAdminPassword : this.servicePassword;
    return { servers: this.url, user, pass, inboxPrefix: natsInboxPrefix(user) };
  }

  async resume(): Promise<void> {
    // A shell holds the broker and kills it when its stdin, our end of a pipe, closes: the broker dies with the test
    // process however that ends (a worker killed mid-file runs no afterAll and no 'exit' hook; a file that never
    // calls `remove()`). Its own process group, so `stop()` can kill both at once.
    // (Background jobs of a non-interactive shell read /dev/null, hence the pipe passed on as fd 3.)
    const script = 'exec 3<&0; "$0" -c "$1" & pid=$!; (read _ <&3; kill -9 $pid 2>/dev/null) & wait $pid';
    const child = spawn('/bin/sh', ['-c', script, process.env.NATS_SERVER_BIN ?? 'nats-server', this.configFile], {
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
    });
    this.child = child;
    running.add(child);
    let problem: string | null = null;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.once('error', (error) => {
      problem = `could not start (${error.message}); install nats-server or set NATS_SERVER_BIN`;
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      problem ??= `exited (code ${code}, signal ${signal}) ${stderr.trim()}`;
    });
    await waitForPort(this.port, () => problem);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      killGroup(child);
    });
    this.child = null;
    await waitForPortClosed(this.port);
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
