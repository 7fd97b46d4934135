import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, errorHandlerPlugin, isTemporarilyUnavailable } from './errors.ts';

async function appThrowing(error: unknown) {
  const app = Fastify();
  await app.register(errorHandlerPlugin, {});
  app.get('/boom', async () => {
    throw error;
  });
  return app;
}

describe('the error shape', () => {
  it('sends an AppError with its status, code and message', async () => {
    const app = await appThrowing(new AppError('TILE_UNAVAILABLE', 'This tile is already claimed. Please choose another.'));
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'TILE_UNAVAILABLE', message: 'This tile is already claimed. Please choose another.' },
    });
  });

  it('masks the message of an unexpected error', async () => {
    const app = await appThrowing(new Error('relation "secret_table" does not exist'));
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('INTERNAL');
    expect(response.body).not.toContain('secret_table');
  });

  it('answers 503 with Retry-After when the database is unreachable', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const app = await appThrowing(new Error('Invalid invocation', { cause: refused }));
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json().error.code).toBe('NOT_READY');
  });

  it('recognises unavailability through Prisma driver adapter errors and PostgreSQL codes', () => {
    expect(isTemporarilyUnavailable({ meta: { driverAdapterError: { cause: { originalCode: '57P01' } } } })).toBe(true);
    expect(isTemporarilyUnavailable({ code: 'P2002' })).toBe(false);
    expect(isTemporarilyUnavailable(new Error('duplicate key'))).toBe(false);
  });
});
