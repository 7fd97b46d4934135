import { TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const LIMIT = 3;
// Started one after the other: the second finds the migrations applied, as a scaled-out replica does.
const service = servicePerFile((env) => buildApp(loadEnv({ ...env, CONTACT_RATE_LIMIT_MAX: String(LIMIT) })), { replicas: 2 });

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'feedback', message: 'Lovely map!' };
const send = (app: FastifyInstance, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: valid,
    headers: { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-client-ip': ip },
  });

it(`two contact replicas allow one client ${LIMIT} messages between them, as one replica does; the next is 429`, async () => {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i += 1) statuses.push((await send(service.replica(i % 2), '192.0.2.30')).statusCode);
  expect(statuses).toEqual([...Array(LIMIT).fill(201), 429]);
  expect((await send(service.replica(0), '192.0.2.30')).statusCode).toBe(429);
  expect((await send(service.replica(1), '192.0.2.31')).statusCode).toBe(201);
  expect(await service.db.count('contact.contact_submissions')).toBe(LIMIT + 1);
});
