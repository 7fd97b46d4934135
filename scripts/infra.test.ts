// The infra detection's probes against real sockets, and the helpers start/test rely on.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { probeNats, probePort, redact, withDatabase } from './lib/infra.ts';

function listen(onConnection: (socket: net.Socket) => void = () => {}): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer(onConnection);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A port that was just free: bound, then released. */
async function closedPort(): Promise<number> {
  const server = await listen();
  const port = portOf(server);
  await close(server);
  return port;
}

describe('probePort', () => {
  it('is true for a port that accepts connections', async () => {
    const server = await listen((socket) => socket.end());
    try {
      expect(await probePort(portOf(server))).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('is false for a closed port, quickly', async () => {
    const port = await closedPort();
    const started = Date.now();
    expect(await probePort(port)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('probeNats', () => {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  afterAll(() => sockets.forEach((s) => s.destroy()));

  it('is true when the server greets with the NATS INFO line', async () => {
    const server = await listen((socket) => {
      track(socket);
      socket.write('INFO {"server_id":"test","version":"2.10.0","jetstream":true}\r\n');
    });
    try {
      expect(await probeNats(portOf(server))).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('is false for a listener that is not NATS (says something else, or nothing)', async () => {
    const http = await listen((socket) => {
      track(socket);
      socket.write('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    const silent = await listen(track);
    try {
      expect(await probeNats(portOf(http))).toBe(false);
      expect(await probeNats(portOf(silent), '127.0.0.1', 300)).toBe(false);
    } finally {
      sockets.forEach((s) => s.destroy());
      await Promise.all([close(http), close(silent)]);
    }
  });

  it('is false for a closed port', async () => {
    expect(await probeNats(await closedPort())).toBe(false);
  });
});

describe('URL helpers', () => {
  it('withDatabase swaps the database of a postgres URL', () => {
    expect(withDatabase('postgresql://postgres@127.0.0.1:5432/postgres', 'pixel_atlas')).toBe(
      'postgresql://postgres@127.0.0.1:5432/pixel_atlas',
    );
    expect(withDatabase('postgresql://u:p@db:5432/x?sslmode=disable', 'y')).toBe('postgresql://u:p@db:5432/y?sslmode=disable');
  });

  it('redact hides passwords', () => {
    expect(redact('postgresql://u:secret@db:5432/x')).toBe('postgresql://u:***@db:5432/x');
    expect(redact('postgresql://u@db:5432/x')).toBe('postgresql://u@db:5432/x');
  });
});
