import { footprintIsLandQuery } from '@pixel-atlas/contracts/queries';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { connectBus, type EventBus } from './nats.ts';
import { answer, query, serveQuery } from './rpc.ts';
import { createTestStream, type TestStream } from './testing.ts';

let bus: EventBus;
let stream: TestStream;

beforeAll(async () => {
  stream = await createTestStream();
  bus = await connectBus(stream.busSettings('rpc-test'));
});
afterAll(async () => {
  await bus?.nc.drain();
  await stream?.remove();
});

it('answers a typed query once per request across a queue group, and returns AppErrors with their code', async () => {
  let answered = 0;
  const handler = answer(footprintIsLandQuery, async ({ x }) => {
    answered += 1;
    if (x < 0) throw new AppError('VALIDATION_FAILED', 'negative');
    return { mapExists: true, land: x % 2 === 0 };
  });
  const replicas = [serveQuery(bus, 'map', handler, () => {}), serveQuery(bus, 'map', handler, () => {})];
  await bus.nc.flush();
  expect(await query(bus, footprintIsLandQuery, { x: 2, y: 0, size: 1 })).toEqual({ mapExists: true, land: true });
  expect(await query(bus, footprintIsLandQuery, { x: 3, y: 0, size: 1 })).toEqual({ mapExists: true, land: false });
  expect(answered).toBe(2);
  await expect(query(bus, footprintIsLandQuery, { x: -1, y: 0, size: 1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  for (const s of replicas) s.unsubscribe();
  await expect(query(bus, footprintIsLandQuery, { x: 2, y: 0, size: 1 }, { timeoutMs: 500 })).rejects.toMatchObject({
    code: expect.stringMatching(/UPSTREAM_UNAVAILABLE|TIMEOUT/),
  });
});
