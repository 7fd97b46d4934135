import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager, type ClusterInfo, type JetStreamManager } from '@nats-io/jetstream';
import type { ConnectionOptions } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { freePort } from './free-port.ts';
import {
  EVENTS_ADMIN_USER,
  natsInboxPrefix,
  natsServerConfig,
  serviceUsers,
  writeNatsServerConfig,
  type NatsServerConfigOptions,
  type NatsUserName,
} from './nats-auth.ts';

const quote = (text: string) => JSON.stringify(text);

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

/**
 * Starts nats-server on `configFile` and waits until it listens on `port`. A shell holds the broker and kills it when
 * its stdin, our end of a pipe, closes: the broker dies with the test process however that ends (a worker killed
 * mid-file runs no afterAll and no 'exit' hook; a file that never calls `remove()`). Its own process group, so
 * `stopBroker()` can kill both at once. (Background jobs of a non-interactive shell read /dev/null, hence the pipe
 * passed on as fd 3.)
 */
async function startBroker(configFile: string, port: number): Promise<ChildProcess> {
  const script = 'exec 3<&0; "$0" -c "$1" & pid=$!; (read _ <&3; kill -9 $pid 2>/dev/null) & wait $pid';
  const child = spawn('/bin/sh', ['-c', script, process.env.NATS_SERVER_BIN ?? 'nats-server', configFile], {
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: true,
  });
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
  await waitForPort(port, () => problem);
  return child;
}

/** SIGKILLs a broker started by `startBroker` (no goodbye to its clients or its cluster) and waits for its port to close. */
async function stopBroker(child: ChildProcess | null, port: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    killGroup(child);
  });
  await waitForPortClosed(port);
}

/** A unique stream token (the stream is its upper case, the subject prefix it and a dot) and a private folder. */
async function newBrokerDir(): Promise<{ token: string; dir: string }> {
  const token = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return { token, dir: await mkdtemp(path.join(os.tmpdir(), 'pa-nats-')) };
}

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
  /** Copies of the event stream the operations step asks for: one broker keeps one. */
  readonly streamReplicas: number;
  readonly servicePassword = randomBytes(12).toString('hex');
  readonly operatorPassword = randomBytes(12).toString('hex');
  readonly eventsAdminPassword = randomBytes(12).toString('hex');

  protected constructor(
    readonly port: number,
    protected readonly dir: string,
    /** The one stream (and subject prefix) the service users are granted. */
    readonly stream: string,
    readonly subjectPrefix: string,
    streamReplicas = 1,
  ) {
    this.streamReplicas = streamReplicas;
  }

  static async start(): Promise<TestNatsServer> {
    const { token, dir } = await newBrokerDir();
    const server = new TestNatsServer(await freePort(), dir, token.toUpperCase(), `${token}.`);
    await writeNatsServerConfig(server.configFile, {
      listen: `127.0.0.1:${server.port}`,
      storeDir: server.storeDir,
      users: server.users(),
    });
    await server.resume();
    return server;
  }

  /** Every service's user with its production grants, the operations step's, and the test operator. */
  protected users(): NatsServerConfigOptions['users'] {
    return [
      ...serviceUsers({ prefix: this.subjectPrefix, stream: this.stream }, (user) => ({
        value: user === EVENTS_ADMIN_USER ? this.eventsAdminPassword : this.servicePassword,
      })),
      { user: TEST_OPERATOR_USER, password: { value: this.operatorPassword } },
    ];
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** The JetStream store (a test may delete it while the server is stopped: it comes back empty). */
  get storeDir(): string {
    return path.join(this.dir, 'store');
  }

  protected get configFile(): string {
    return path.join(this.dir, 'nats-server.conf');
  }

  /**
   * Options for `connect()` as a service's user or the operations step's (their grants only) or, by default, as the
   * test operator.
   */
  connectOptions(user: NatsUserName | typeof TEST_OPERATOR_USER = TEST_OPERATOR_USER): ConnectionOptions {
    // A cluster's url names every node, comma-separated (NATS_URL's form); the client takes them as a list.
    const servers = this.url.split(',');
    if (user === TEST_OPERATOR_USER) return { servers, user, pass: this.operatorPassword };
    const pass = user === EVENTS_ADMIN_USER ? this.eventsAdminPassword : this.servicePassword;
    return { servers, user, pass, inboxPrefix: natsInboxPrefix(user) };
  }

  async resume(): Promise<void> {
    this.child = await startBroker(this.configFile, this.port);
  }

  async stop(): Promise<void> {
    await stopBroker(this.child, this.port);
    this.child = null;
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

interface ClusterNode {
  /** Its server_name, as JetStream names the peers of the meta group, of streams and of consumers. */
  name: string;
  port: number;
  clusterPort: number;
  /** The monitoring port (/jsz: the meta leader and its peers). */
  httpPort: number;
  child: ChildProcess | null;
}

/** What /jsz says about the JetStream meta group (the cluster-wide API: streams and consumers are created through it). */
interface MetaCluster {
  leader?: string;
  cluster_size?: number;
  replicas?: Array<{ name: string; current: boolean; offline?: boolean }>;
}

/**
 * A JetStream cluster of `size` (3) nats-servers in one test, on spare ports: each its own config (server_name, the
 * cluster's name, its cluster port, routes naming the others), its own store and monitoring port; the users and grants
 * of `TestNatsServer`. `url` names every node comma-separated, as NATS_URL does for the services, and the operations
 * step (`createTestStream`) declares the stream with a copy on every node (`streamReplicas`). A test kills any one node
 * (`killNode`: SIGKILL), starts it again on its store (`startNode`) and waits until it has caught up (`waitCaughtUp`).
 */
export class TestNatsCluster extends TestNatsServer {
  private constructor(
    dir: string,
    stream: string,
    subjectPrefix: string,
    private readonly nodes: ClusterNode[],
  ) {
    // nodes is never empty (start() makes `size` ≥ 1 of them)
    super(nodes[0]!.port, dir, stream, subjectPrefix, nodes.length);
  }

  static override async start(size = 3): Promise<TestNatsCluster> {
    const { token, dir } = await newBrokerDir();
    const nodes: ClusterNode[] = [];
    for (let i = 1; i <= size; i++) {
      nodes.push({ name: `n${i}`, port: await freePort(), clusterPort: await freePort(), httpPort: await freePort(), child: null });
    }
    const cluster = new TestNatsCluster(dir, token.toUpperCase(), `${token}.`, nodes);
    for (const node of nodes) {
      await mkdir(cluster.nodeDir(node), { recursive: true });
      const routes = nodes.filter((n) => n !== node).map((n) => quote(`nats-route://127.0.0.1:${n.clusterPort}`));
      const config = [
        `server_name: ${quote(node.name)}`,
        `http: ${quote(`127.0.0.1:${node.httpPort}`)}`,
        natsServerConfig({ listen: `127.0.0.1:${node.port}`, storeDir: path.join(cluster.nodeDir(node), 'store'), users: cluster.users() }),
        `cluster {\n  name: ${quote(token)}\n  listen: ${quote(`127.0.0.1:${node.clusterPort}`)}\n  routes: [${routes.join(', ')}]\n}\n`,
      ].join('\n');
      await writeFile(cluster.nodeConfig(node), config, { mode: 0o600 });
    }
    try {
      await cluster.resume();
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  override get url(): string {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.port}`).join(',');
  }

  override get storeDir(): string {
    throw new Error("a cluster has one store per node (its folder under the cluster's)");
  }

  /** The nodes' server names (n1, n2, n3): what stream and consumer info name as leader and replicas. */
  get nodeNames(): string[] {
    return this.nodes.map((n) => n.name);
  }

  private node(name: string): ClusterNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name} in this cluster (${this.nodeNames.join(', ')})`);
    return node;
  }

  private nodeDir(node: ClusterNode): string {
    return path.join(this.dir, node.name);
  }

  private nodeConfig(node: ClusterNode): string {
    return path.join(this.nodeDir(node), 'nats-server.conf');
  }

  /** Starts every node that is down (all of them at first) and waits until the cluster's JetStream answers. */
  override async resume(): Promise<void> {
    await Promise.all(this.nodes.filter((n) => !n.child).map((n) => this.startNode(n.name, { wait: false })));
    await this.waitForMetaLeader();
  }

  override async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.killNode(n.name)));
  }

  /** SIGKILLs one node: no goodbye to its clients or its peers, as a crashed machine. */
  async killNode(name: string): Promise<void> {
    const node = this.node(name);
    await stopBroker(node.child, node.port);
    node.child = null;
  }

  /** Starts a node again on its own store; by default waits until the meta group has a leader and every node is current. */
  async startNode(name: string, options: { wait?: boolean } = {}): Promise<void> {
    const node = this.node(name);
    node.child = await startBroker(this.nodeConfig(node), node.port);
    if (options.wait !== false) await this.waitForMetaLeader();
  }

  /**
   * Waits until the meta group (the cluster-wide JetStream API) has a leader and every running node is a current
   * peer of it: before that, creating a replicated stream answers 'JetStream system temporarily unavailable' or
   * 'insufficient resources'.
   */
  async waitForMetaLeader(timeoutMs = 60_000): Promise<void> {
    const up = this.nodes.filter((n) => n.child);
    let last = 'no answer';
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const metas = await Promise.all(
        up.map((n) =>
          fetch(`http://127.0.0.1:${n.httpPort}/jsz`, { signal: AbortSignal.timeout(2000) })
            .then((r) => r.json() as Promise<{ meta_cluster?: MetaCluster }>)
            .then((j) => j.meta_cluster ?? {})
            .catch((): MetaCluster => ({})),
        ),
      );
      const leader = metas.find((m) => m.leader)?.leader;
      // The leader lists its followers; every other running node must be one of them, and current.
      const fromLeader = metas[up.findIndex((n) => n.name === leader)];
      const followers = new Map((fromLeader?.replicas ?? []).map((r) => [r.name, r.current && !r.offline]));
      const agreed = metas.every((m) => m.leader === leader);
      last = `leader ${leader ?? 'none'}, followers ${[...followers].map(([n, c]) => `${n}${c ? '' : ' (behind)'}`).join(', ') || 'none'}`;
      if (leader && agreed && up.every((n) => n.name === leader || followers.get(n.name))) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the NATS cluster's JetStream meta group is not ready after ${timeoutMs} ms: ${last}`);
  }

  /**
   * The node leading `stream` (its writes go through it), as the cluster reports it; while the meta group or the
   * stream elects a leader (a node was just killed) the cluster answers nothing, and this asks again for up to 30 s.
   */
  async streamLeader(stream = this.stream): Promise<string> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const leader = await this.withManager(async (jsm) => (await jsm.streams.info(stream)).cluster?.leader).catch((error: unknown) => {
        if (Date.now() > deadline) throw error;
        return undefined;
      });
      if (leader) return leader;
      if (Date.now() > deadline) throw new Error(`${stream} has no leader after 30 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * Waits until `stream` has a leader and a current copy on every node, and every durable on it a leader and every
   * node's copy online and heard from in the last 5 s: a node started again has caught up (and killing another would
   * leave a quorum with everything). (An idle consumer's follower on 2.9 can report 'not current, lag 2' until the
   * consumer's next acknowledgement: its own activity is what the consumers' test counts.)
   */
  async waitCaughtUp(stream = this.stream, timeoutMs = 60_000): Promise<void> {
    let last = 'no answer';
    const deadline = Date.now() + timeoutMs;
    const others = this.nodes.length - 1;
    const complete = (cluster: ClusterInfo | undefined, consumer = false) =>
      !!cluster?.leader && (cluster.replicas ?? []).filter((r) => !r.offline && (consumer ? r.active < 5e9 : r.current)).length === others;
    while (Date.now() < deadline) {
      const behind = await this.withManager(async (jsm) => {
        const lagging: string[] = [];
        const info = await jsm.streams.info(stream);
        if (!complete(info.cluster)) lagging.push(`stream ${describeCluster(info.cluster)}`);
        for await (const consumer of jsm.consumers.list(stream)) {
          // Only the durables are replicated: an ephemeral consumer (the gateway's live feed) lives on one node.
          if (!consumer.config.durable_name) continue;
          if (!complete(consumer.cluster, true)) lagging.push(`${consumer.name} ${describeCluster(consumer.cluster)}`);
        }
        return lagging;
      }).catch((error: unknown) => [String((error as Error).message ?? error)]);
      if (!behind.length) return;
      last = behind.slice(0, 3).join('; ');
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${stream} has not caught up on every node after ${timeoutMs} ms: ${last}`);
  }

  private async withManager<T>(work: (jsm: JetStreamManager) => Promise<T>): Promise<T> {
    const nc = await connect({ ...this.connectOptions(), timeout: 5000 });
    try {
      return await work(await jetstreamManager(nc, { timeout: 5000 }));
    } finally {
      await nc.close();
    }
  }
}

function describeCluster(cluster: ClusterInfo | undefined): string {
  if (!cluster) return 'no cluster info';
  const replicas = (cluster.replicas ?? []).map((r) => `${r.name}${r.offline ? ' offline' : r.current ? '' : ` behind ${r.lag ?? '?'}`}`);
  return `leader ${cluster.leader ?? 'none'}, replicas ${replicas.join(', ') || 'none'}`;
}
