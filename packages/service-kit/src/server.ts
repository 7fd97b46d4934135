import type { FastifyInstance } from 'fastify';
import { ConfigError } from './env.ts';

export interface RunServerOptions<E extends { HOST: string; PORT: number; SHUTDOWN_TIMEOUT_MS: number }> {
  loadEnv: () => E;
  buildApp: (env: E) => Promise<FastifyInstance>;
}

/**
 * Listens, and on SIGTERM/SIGINT shuts down gracefully: stop accepting, finish in-flight requests,
 * then the app's onClose hooks drain NATS and close the database. A second signal or the timeout
 * forces the exit.
 */
export async function runServer<E extends { HOST: string; PORT: number; SHUTDOWN_TIMEOUT_MS: number }>(
  options: RunServerOptions<E>,
): Promise<void> {
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
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await app.listen({ host: env.HOST, port: env.PORT });
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
}
