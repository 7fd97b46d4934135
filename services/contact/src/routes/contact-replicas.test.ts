import {
  createTestDatabase,
  createTestStream,
  TEST_INTERNAL_TOKEN,
  testServiceEnv,
  type TestDatabase,
  type TestStream,
} from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

const LIMIT = 3;
let db: TestDatabase;
let stream: TestStream;
let replicas: FastifyInstance[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  stream = await createTestStream();
  const env = loadEnv({ ...testServiceEnv(db, stream), CONTACT_RATE_LIMIT_MAX: String(LIMIT) });
  // Started one after the other: the second finds the migrations applied, as a scaled-out replica does.
  for (let i = 0; i < 2; i += 1) {
    const app = await buildApp(env);
    await app.ready();
    replicas.push(app);
  }
});

afterAll(async () => {
  await Promise.allSettled(replicas.map((app) => app.close()));
  replicas = [];
  await stream?.remove();
  await db?.drop();
});

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
  for (let i = 0; i <= LIMIT; i += 1) statuses.push((await send(replicas[i % 2], '192.0.2.30')).statusCode);
  expect(statuses).toEqual([...Array(LIMIT).fill(201), 429]);
  expect((await send(replicas[0], '192.0.2.30')).statusCode).toBe(429);
  expect((await send(replicas[1], '192.0.2.31')).statusCode).toBe(201);
  const stored = await db.query<{ n: string }>(`SELECT count(*) AS n FROM contact.contact_submissions`);
  expect(Number(stored[0].n)).toBe(LIMIT + 1);
});
