import { execFile, execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@pixel-atlas/service-kit/free-port';
import pg from 'pg';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user (who then owns the data directory). */
function asPostgres(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

async function pgTool(tool: string, args: string[], owner: { uid: number; gid: number } | null): Promise<string> {
  const bin = path.join(PG_BIN, tool);
  const { stdout } = owner
    ? await run('runuser', ['-u', 'postgres', '--', bin, ...args], { timeout: 60_000 })
    : await run(bin, args, { timeout: 60_000 });
  return stdout;
}

/**
 * A private PostgreSQL 15 cluster on a spare port (initdb + pg_ctl), for fault tests that stop and
 * restart the database: never the machine's shared server. Trust auth on 127.0.0.1 only; the data
 * directory survives `stop()`, so `resume()` is a restart of the same cluster.
 */
export class TestPostgres {
  private running = false;
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly owner: { uid: number; gid: number } | null,
  ) {}

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** The cluster's own directory: the data directory, the server log and the Unix socket are in it. */
  get directory(): string {
    return this.dir;
  }

  /** Server URL (database `postgres`); createTestDatabase(url) makes a database on it. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** `conf`: extra settings for postgresql.auto.conf, given the server before its first start (e.g. WAL archiving). */
  static async start(options: { conf?: (server: TestPostgres) => Record<string, string> } = {}): Promise<TestPostgres> {
    const owner = asPostgres();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pa-pg-'));
    if (owner) await chown(dir, owner.uid, owner.gid);
    await chmod(dir, 0o700);
    const server = new TestPostgres(await freePort(), dir, owner);
    await pgTool('initdb', ['-D', server.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], owner);
    // Loopback only, sockets in the private directory. fsync and full-page writes only guard against the
    // machine losing power, which no test does: off, for speed. synchronous_commit stays ON: with it off,
    // a crash of PostgreSQL itself (stop -m immediate) loses commits it already acknowledged, and the
    // suite would rightly report 2xx answers without their rows.
    const conf = [
      `port = ${server.port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'max_connections = 200',
      'fsync = off',
      'full_page_writes = off',
      'shared_buffers = 64MB',
      ...Object.entries(options.conf?.(server) ?? {}).map(([name, value]) => `${name} = '${value.replaceAll("'", "''")}'`),
    ].join('\n');
    await writeFile(path.join(server.dataDir, 'postgresql.auto.conf'), `${conf}\n`);
    if (owner) await chown(path.join(server.dataDir, 'postgresql.auto.conf'), owner.uid, owner.gid);
    await server.resume();
    return server;
  }

  async resume(): Promise<void> {
    await pgTool('pg_ctl', ['-D', this.dataDir, '-l', path.join(this.dir, 'server.log'), '-w', '-t', '30', 'start'], this.owner);
    this.running = true;
    // pg_ctl -w returns once the server accepts connections; make sure TCP does too.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const client = new pg.Client({ connectionString: this.url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  /** A server on this data directory started by someone else (npm run restore): stop() and destroy() stop it too. */
  adopt(): void {
    this.running = true;
  }

  /** 'fast' disconnects every session and shuts down cleanly; 'immediate' is a crash (recovery at the next start). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.running) return;
    await pgTool('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop'], this.owner);
    this.running = false;
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
