import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { ErrorCode } from '@pixel-atlas/contracts/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { AppError, isAppError } from './errors.ts';
import type { EventBus } from './nats.ts';

type Reply<T> = { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string } };

export interface QueryHandler<Req, Res> {
  subject: string;
  request: z.ZodType<Req>;
  handle: (request: Req) => Promise<Res>;
}

/**
 * Answers a query in a queue group named after the service, so replicas share the load and each
 * request gets exactly one answer.
 */
export function serveQuery<Req, Res>(bus: EventBus, queue: string, handler: QueryHandler<Req, Res>, onError: (error: unknown) => void): Subscription {
  const subscription = bus.nc.subscribe(bus.subject(handler.subject), { queue });
  (async () => {
    for await (const message of subscription) {
      let reply: Reply<Res>;
      try {
        const request = handler.request.parse(message.json());
        reply = { ok: true, data: await handler.handle(request) };
      } catch (error) {
        if (!isAppError(error)) onError(error);
        reply = isAppError(error)
          ? { ok: false, error: { code: error.code, message: error.message } }
          : { ok: false, error: { code: 'INTERNAL', message: 'query failed' } };
      }
      message.respond(JSON.stringify(reply));
    }
  })().catch(onError);
  return subscription;
}

/** Asks another service; no answer (down, or no replica listening) becomes a clear 502/504. */
export async function query<Res>(bus: EventBus, subject: string, payload: unknown, options: { timeoutMs?: number } = {}): Promise<Res> {
  let answer;
  try {
    answer = await bus.nc.request(bus.subject(subject), JSON.stringify(payload), { timeout: options.timeoutMs ?? 3000 });
  } catch (error) {
    const message = String((error as Error).message ?? error);
    if (message.includes('no responders') || (error as { code?: string }).code === '503') {
      throw new AppError('UPSTREAM_UNAVAILABLE', `No service is answering ${subject} right now`);
    }
    throw new AppError('TIMEOUT', `No answer to ${subject} in time`);
  }
  const reply = answer.json<Reply<Res>>();
  if (!reply.ok) throw new AppError(reply.error.code, reply.error.message);
  return reply.data;
}

/** Registers query handlers for the app's lifetime (unsubscribed before NATS drains). */
export const queriesPlugin = fp(
  async (app: FastifyInstance, opts: { queue: string; handlers: Array<QueryHandler<any, any>> }) => {
    let subscriptions: Subscription[] = [];
    app.addHook('onReady', async () => {
      subscriptions = opts.handlers.map((h) => serveQuery(app.bus, opts.queue, h, (error) => app.log.error({ err: error, subject: h.subject }, 'query handler failed')));
    });
    app.addHook('preClose', async () => {
      for (const s of subscriptions) s.unsubscribe();
    });
  },
  { name: 'pixel-atlas-queries', dependencies: ['pixel-atlas-nats'] },
);

export type { NatsConnection };
