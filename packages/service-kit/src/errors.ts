import { ERROR_STATUS, MASKED_INTERNAL_MESSAGE, type ErrorCode } from '@pixel-atlas/contracts/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isTransientFailure } from './failures.ts';

/** The one error type of every service: the code decides the status, the message is shown to people. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 503) return 'NOT_READY';
  if (status >= 500) return 'INTERNAL';
  return 'BAD_REQUEST';
}

interface ZodIssueLike {
  message: string;
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function describeValidation(issues: ZodIssueLike[], context: string | undefined): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path =
      issue.params?.issue?.path?.map(String).join('.') || issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || context || 'body';
    fields[path] ??= issue.message;
  }
  const [firstPath, firstMessage] = Object.entries(fields)[0] ?? ['body', 'Invalid request'];
  return { message: `${firstPath}: ${firstMessage}`, fields };
}

/**
 * True when an error says a dependency is unreachable for the moment (nothing was written): the codes are
 * classified by `isTransientFailure`; pg's socket-level errors that carry no code are recognised by message.
 */
export function isTemporarilyUnavailable(error: unknown, depth = 0): boolean {
  if (isTransientFailure(error)) return true;
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { cause?: unknown; meta?: { driverAdapterError?: unknown }; message?: unknown };
  if (
    typeof e.message === 'string' &&
    /ECONNREFUSED|Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down)/.test(
      e.message,
    )
  ) {
    return true;
  }
  return isTemporarilyUnavailable(e.cause, depth + 1) || isTemporarilyUnavailable(e.meta?.driverAdapterError, depth + 1);
}

export const TEMPORARILY_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** Every error leaves as `{ error: { code, message } }`; 5xx messages are masked and logged in full. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, opts: { jsonNotFound?: boolean }) => {
    app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
      if (isAppError(error)) {
        if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        const message = error.statusCode >= 500 ? MASKED_INTERNAL_MESSAGE : error.message;
        return reply.status(error.statusCode).send({ error: { code: error.code, message, details: error.details } });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const { message, fields } = describeValidation(error.validation as ZodIssueLike[], error.validationContext);
        return reply.status(400).send({ error: { code: 'VALIDATION_FAILED', message, details: { fields } } });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
        return reply.status(500).send({ error: { code: 'INTERNAL', message: MASKED_INTERNAL_MESSAGE } });
      }
      const status = (error as FastifyError).statusCode ?? 500;
      if (status >= 500 && isTemporarilyUnavailable(error)) {
        // Nothing was written (the transaction never reached the database): worth retrying, unlike a bug.
        request.log.warn({ err: error }, 'dependency unavailable');
        return reply
          .status(503)
          .header('retry-after', '2')
          .send({ error: { code: 'NOT_READY', message: TEMPORARILY_UNAVAILABLE_MESSAGE } });
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.status(status).send({ error: { code: codeForStatus(status), message: MASKED_INTERNAL_MESSAGE } });
      }
      return reply.status(status).send({ error: { code: codeForStatus(status), message: error.message } });
    });
    if (opts.jsonNotFound === false) return;
    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${request.url.split('?')[0]}` } });
    });
  },
  { name: 'pixel-atlas-errors' },
);
