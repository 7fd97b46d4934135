import { NoRespondersError, RequestError, type Subscription } from '@nats-io/nats-core';
import type { ErrorCode } from '@pixel-atlas/contracts/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { AppError, isAppError } from './errors.ts';
import type { EventBus } from './nats.ts';

type Reply<T> = { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string } };

/** A query or command as `@pixel-atlas/contracts/queries` declares it. */
export interface QueryDefinition<Req, Res> {
  subject: string;
  request: z.ZodType<Req>;
  reply: z.ZodType<Res>;
}

export interface QueryHandler {
  subject: string;
  handle: (payload: unknown) => Promise<unknown>;
}

/** Binds a handler to its definition: the request is validated before the handler sees it. */
export function answer<Req, Res>(definition: QueryDefinition<Req, Res>, handle: (request: Req) => Promise<Res>): QueryHandler {
  return {
    subject: definition.subject,
    handle: async (payload) => {
      const parsed = definition.request.safeParse(payload);
      if (!parsed.success) throw new AppError('VALIDATION_FAILED', `bad ${definition.subject} request: ${parsed.error.issues[0]?.message}`);
      return definition.reply.parse(await handle(parsed.data));
    },
  };
}

/**
 * Answers in a queue group named after the service, so replicas share the load and each request gets
 * exactly one answer. AppErrors travel back with their code; anything else is masked.
 */
export function serveQuery(bus: EventBus, queue: string, handler: QueryHandler, onError: (error: unknown) => void): Subscription {
  const subscription = bus.nc.subscribe(bus.subject(handler.subject), { queue });
  (async () => {
    for await (const message of subscription) {
      let reply: Reply<unknown>;
      try {
        reply = { ok: true, data: await handler.handle(message.json()) };
      } catch (error) {
        if (!isAppError(error) || error.statusCode >= 500) onError(error);
        reply = isAppError(error)
          ? { ok: false, error: { code: error.code, message: error.message } }
          : { ok: false, error: { code: 'INTERNAL', message: `${handler.subject} failed` } };
      }
      message.respond(JSON.stringify(reply));
    }
  })().catch(onError);
  return subscription;
}

/** Asks another service; no answer (down, or no replica listening) becomes a clear 502/504 AppError. */
export async function query<Req, Res>(
  bus: EventBus,
  definition: QueryDefinition<Req, Res>,
  payload: Req,
  options: { timeoutMs?: number } = {},
): Promise<Res> {
  let answerMessage;
  try {
    answerMessage = await bus.nc.request(bus.subject(definition.subject), JSON.stringify(payload), { timeout: options.timeoutMs ?? 3000 });
  } catch (error) {
    if (error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders())) {
      throw new AppError('UPSTREAM_UNAVAILABLE', `No service is answering ${definition.subject} right now`);
    }
    throw new AppError('TIMEOUT', `No answer to ${definition.subject} in time`);
  }
  const reply = answerMessage.json<Reply<unknown>>();
  if (!reply.ok) throw new AppError(reply.error.code, reply.error.message);
  return definition.reply.parse(reply.data);
}

/** Serves the given handlers for the app's lifetime (unsubscribed before NATS drains). */
export const queriesPlugin = fp(
  async (app: FastifyInstance, opts: { queue: string; handlers: QueryHandler[] }) => {
    let subscriptions: Subscription[] = [];
    app.addHook('onReady', async () => {
      subscriptions = opts.handlers.map((h) =>
        serveQuery(app.bus, opts.queue, h, (error) => app.log.error({ err: error, subject: h.subject }, 'query handler failed')),
      );
    });
    app.addHook('preClose', async () => {
      for (const s of subscriptions) s.unsubscribe();
    });
  },
  { name: 'pixel-atlas-queries', dependencies: ['pixel-atlas-nats'] },
);
