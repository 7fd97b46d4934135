import net from 'node:net';

/**
 * How a slow client holds a connection: `page-body` posts a megabyte to `/` one byte at a time, `api-body` posts a
 * contact message of 2 KB the same way (under every body limit), `headers` never finishes its request's headers.
 */
export type SlowKind = 'page-body' | 'api-body' | 'headers';
export const SLOW_KINDS: SlowKind[] = ['page-body', 'api-body', 'headers'];

const OPENINGS: Record<SlowKind, string> = {
  'page-body': 'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\na',
  'api-body': 'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n{',
  headers: 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: a',
};

export interface SlowConnection {
  kind: SlowKind;
  localAddress: string;
  /** When the connection was established (ms since the epoch). */
  openedAt: number;
  /** Resolves when the server closed the connection: when, and what it answered (the first line), if anything. */
  closed: Promise<{ at: number; statusLine: string }>;
  destroy(): void;
}

/**
 * Opens a connection from `localAddress` (any 127.x.y.z answers on loopback) and feeds it one byte every `trickleMs`,
 * so an idle timeout never fires: only a header, request or body rule can close it. Used by tests and bench:connections.
 */
export function openSlowConnection(options: {
  port: number;
  localAddress: string;
  kind: SlowKind;
  trickleMs?: number;
}): Promise<SlowConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: options.port, localAddress: options.localAddress });
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<{ at: number; statusLine: string }>((done) =>
      socket.once('close', () => {
        clearInterval(timer);
        done({ at: Date.now(), statusLine: received.split('\r\n')[0] ?? '' });
      }),
    );
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    let connected = false;
    socket.on('error', (error) => {
      // A reset after the server answered or gave up is a close like any other; one before connecting is a failure.
      if (!connected) reject(error);
    });
    socket.once('connect', () => {
      connected = true;
      const openedAt = Date.now();
      socket.write(OPENINGS[options.kind]);
      timer = setInterval(() => {
        if (socket.writable) socket.write('a');
      }, options.trickleMs ?? 500);
      resolve({ kind: options.kind, localAddress: options.localAddress, openedAt, closed, destroy: () => socket.destroy() });
    });
  });
}

/** `count` slow connections spread evenly over `addresses` source addresses (127.0.<block>.1 …), kinds in turn. */
export async function openSlowFlood(options: {
  port: number;
  count: number;
  addresses: number;
  block?: number;
  kinds?: SlowKind[];
  trickleMs?: number;
}): Promise<SlowConnection[]> {
  const kinds = options.kinds ?? SLOW_KINDS;
  const block = options.block ?? 1;
  return Promise.all(
    Array.from({ length: options.count }, (_, i) =>
      openSlowConnection({
        port: options.port,
        localAddress: `127.0.${block}.${(i % options.addresses) + 1}`,
        kind: kinds[i % kinds.length]!,
        trickleMs: options.trickleMs,
      }),
    ),
  );
}
