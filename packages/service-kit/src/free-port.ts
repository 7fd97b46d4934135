import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Ports handed out for test servers, and where the reservations of every process on this machine are kept. */
export interface PortRange {
  from: number;
  /** Exclusive. */
  to: number;
  registry: string;
}

const SERVER_PORTS_FROM = 10_000;

/** The lowest port the kernel hands out for port 0 and outgoing connections (Linux; 32768 elsewhere). */
function ephemeralFloor(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

export function defaultPortRange(): PortRange {
  return { from: SERVER_PORTS_FROM, to: ephemeralFloor(), registry: path.join(os.tmpdir(), 'pixel-atlas-ports') };
}

/** Whether 127.0.0.1:port can be listened on right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port from the kernel (bind to port 0): inside its ephemeral range. */
function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const held = new Set<string>();
let releaseOnExit = false;

/**
 * Claims `port` for this process in the registry (a file named after the port holding the pid, created exclusively).
 * A reservation whose process has died is taken over. Reservations last as long as the process: a test may stop a
 * server and start it again on the same port.
 */
function reserve(registry: string, port: number): boolean {
  const file = path.join(registry, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      held.add(file);
      if (!releaseOnExit) {
        releaseOnExit = true;
        process.once('exit', () => held.forEach((f) => unlinkSafely(f)));
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSafely(file));
      if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) return false;
      unlinkSafely(file);
    }
  }
  return false;
}

function readFileSafely(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function unlinkSafely(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * A free port for a server a test starts (a service, its operations port, a nats-server, a PostgreSQL, an SMTP
 * server), which it may stop and start again on the same port.
 * - Below the kernel's ephemeral range: a port from the kernel could be handed, while its server is down, to any
 *   port-0 listener started meanwhile, and requests meant for the server would reach that stranger.
 * - Reserved machine-wide: test files run in parallel processes, and a port that two of them found free at the same
 *   moment went to both. A fault test's payments replica lost its port to another file's operations port, which
 *   answers `/readyz` too: the replica looked ready, then exited, and its checkouts were answered 405 by the stranger.
 */
export async function freePort(range: PortRange = defaultPortRange()): Promise<number> {
  if (range.to - range.from > 0) {
    mkdirSync(range.registry, { recursive: true });
    for (let tries = 0; tries < 64; tries++) {
      const port = range.from + randomInt(range.to - range.from);
      if (reserve(range.registry, port) && (await canListen(port))) return port;
    }
  }
  return ephemeralPort();
}
