import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from './env.ts';

type ServerEnv = { HOST: string; PORT: number; METRICS_PORT: number; OPS_HOST?: string; SHUTDOWN_TIMEOUT_MS: number };

/**
 * Where the operations port listens unless OPS_HOST says otherwise: loopback, so `/metrics` and the detailed `/readyz`
 * are never reachable from another host by accident (the service's own port follows HOST). Compose sets 0.0.0.0, where
 * only the containers' private network can reach it (Prometheus).
 */
export const DEFAULT_OPS_HOST = '127.0.0.1';

/** Connections the kernel may queue for accept (see `app.listen` below). */
const LISTEN_BACKLOG = 4096;

export interface RunServerOptions<E extends ServerEnv> {
  loadEnv: () => E;
  buildApp: (env: E) => Promise<FastifyInstance>;
}

export interface OperationsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The operations port: Prometheus `/metrics`, `/readyz` with every check's details, and `/healthz`.
 * It is a separate listener so a service whose own port faces the internet (the gateway) never shows
 * its metrics or its dependencies' error messages there. Compose keeps this port on the internal network.
 */
export async function listenOperations(app: FastifyInstance, options: { host: string; port: number }): Promise<OperationsServer> {
  const server = createServer((request, response) => {
    const send = (status: number, body: string, type = 'application/json; charset=utf-8') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(405, JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'GET only' } }));
    if (path === '/metrics') {
      app.metrics.metrics().then(
        (text) => send(200, text, app.metrics.contentType),
        (error) => {
          app.log.error({ err: error }, 'could not collect metrics');
          send(500, JSON.stringify({ error: { code: 'INTERNAL', message: 'metrics collection failed' } }));
        },
      );
      return;
    }
    if (path === '/readyz') {
      app.readiness().then(
        ({ ready, status, checks }) => send(ready ? 200 : 503, JSON.stringify({ status, checks })),
        (error) => {
          app.log.error({ err: error }, 'could not run the readiness checks');
          send(503, JSON.stringify({ status: 'not-ready', checks: {} }));
        },
      );
      return;
    }
    if (path === '/healthz') return send(200, JSON.stringify({ status: 'ok' }));
    send(404, JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route for GET ${path}` } }));
  });
  // A scrape every 15 s needs no idle keep-alive connections held open through shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Listens on PORT (on HOST) and on the operations port (METRICS_PORT, on OPS_HOST), and on SIGTERM/SIGINT shuts down gracefully:
 * stop accepting, finish in-flight requests, then the app's onClose hooks drain NATS and close the
 * database. A second signal or the timeout forces the exit.
 */
export async function runServer<E extends ServerEnv>(options: RunServerOptions<E>): Promise<void> {
  let env: E;
  try {
    env = options.loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const app = await options.buildApp(env);
  let operations: OperationsServer | null = null;
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.close();
      await operations?.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    // Node's default accept queue (511) overflows when thousands of browsers come back at once (a gateway replica
    // died, its live-map streams reconnect to this one): the kernel drops their SYNs and each waits a 1 s
    // retransmit or more. The kernel caps this at net.core.somaxconn.
    await app.listen({ host: env.HOST, port: env.PORT, backlog: LISTEN_BACKLOG });
    operations = await listenOperations(app, { host: env.OPS_HOST ?? DEFAULT_OPS_HOST, port: env.METRICS_PORT });
    app.log.info({ metricsPort: operations.port }, `metrics and detailed readiness on ${operations.url} (METRICS_PORT, OPS_HOST)`);
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    await operations?.close().catch(() => undefined);
    process.exit(1);
  }
}
