import { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

// The broker is this test's own nats-server, so killing it disturbs nobody else.
let nats: TestNatsServer;
beforeAll(async () => {
  nats = await TestNatsServer.start();
});
afterAll(async () => nats?.destroy());
const service = servicePerFile((env) => buildApp(loadEnv({ ...env, CONTACT_RATE_LIMIT_MAX: '1000' })), { natsServer: () => nats });

async function eventIdsInStream(): Promise<string[]> {
  return (await readStream(service.stream)).map((message) => message.event.id);
}

it('loses no contact message while NATS is down: the outbox delivers each exactly once after it returns', async () => {
  const before = await service.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { name: 'Before', email: 'b@example.com', subject: 'general', message: 'one' },
  });
  expect(before.statusCode).toBe(201);
  await eventually(async () => (await eventIdsInStream()).length === 1);

  await nats.stop();
  const during = [];
  for (let i = 0; i < 20; i++) {
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: `Visitor ${i}`, email: `v${i}@example.com`, subject: 'other', message: `while NATS was down #${i}` },
    });
    during.push(response.statusCode);
  }
  expect(during.every((s) => s === 201)).toBe(true);
  expect(await service.app.db.outboxEvent.count({ where: { publishedAt: null } })).toBe(20);

  await nats.resume();
  const ids = await eventually(async () => {
    const found = await eventIdsInStream();
    return found.length >= 21 ? found : null;
  }, 30_000);
  // The stream holds a message as soon as NATS acknowledges it; the relay marks its row in the same round, just after.
  await eventually(async () => (await service.app.db.outboxEvent.count({ where: { publishedAt: null } })) === 0, 30_000);
  const outboxIds = (await service.app.db.outboxEvent.findMany({ select: { id: true } })).map((r) => r.id);
  expect(await eventIdsInStream()).toHaveLength(21);
  expect(new Set(ids).size).toBe(21);
  expect(new Set(ids)).toEqual(new Set(outboxIds));
  expect(await service.app.db.contactSubmission.count()).toBe(21);
});
