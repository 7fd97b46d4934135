// Every service's own port bounds how long one connection may take to send its request (the HTTP_* settings): a body
// or headers sent a byte at a time are cut off at their deadline with 408, over a real socket.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, listenerOptions } from './service.ts';

const HEADERS_MS = 500;
const REQUEST_MS = 1000;
const CHECK_MS = 100;
/** How late a busy machine may be past a deadline. */
const SLACK_MS = 3000;

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await createServiceApp({
    name: 'listener',
    internalToken: 'listener-test-internal-token-0123456789',
    logLevel: 'silent',
    trustRequestIdFrom: 'nobody',
    listener: { HTTP_HEADERS_TIMEOUT_MS: HEADERS_MS, HTTP_REQUEST_TIMEOUT_MS: REQUEST_MS, HTTP_TIMEOUT_CHECK_MS: CHECK_MS },
  });
  app.post('/api/echo', async (request) => request.body);
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app?.close();
});

/** Sends `opening`, then a byte every 100 ms; resolves with the first line answered and how long the socket lived. */
function trickle(opening: string): Promise<{ statusLine: string; heldMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error) => (received ? undefined : reject(error)));
    socket.once('connect', () => {
      socket.write(opening);
      timer = setInterval(() => socket.writable && socket.write('a'), 100);
    });
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ statusLine: received.split('\r\n')[0] ?? '', heldMs: Date.now() - started });
    });
  });
}

describe("a service's listener", () => {
  it('closes a request whose body trickles in at HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
    const { statusLine, heldMs } = await trickle(
      'POST /api/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"',
    );
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(heldMs).toBeGreaterThanOrEqual(REQUEST_MS);
    expect(heldMs).toBeLessThan(REQUEST_MS + CHECK_MS + SLACK_MS);
  });

  it('closes a request whose headers never end at HTTP_HEADERS_TIMEOUT_MS with 408', async () => {
    const { statusLine, heldMs } = await trickle('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a');
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(heldMs).toBeLessThan(HEADERS_MS + CHECK_MS + SLACK_MS);
  });

  it('has bounds by default, where Fastify alone has no request timeout', () => {
    const options = listenerOptions();
    expect(options.requestTimeout).toBe(60_000);
    expect(options.http).toMatchObject({ headersTimeout: 10_000, requestTimeout: 60_000, connectionsCheckingInterval: 1000 });
    expect(options.keepAliveTimeout).toBe(5000);
    // Node refuses a header deadline past the request's: it is cut to it.
    expect(listenerOptions({ HTTP_HEADERS_TIMEOUT_MS: 90_000 }).http.headersTimeout).toBe(60_000);
  });
});
