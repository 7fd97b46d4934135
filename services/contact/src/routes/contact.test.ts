import { TEST_INTERNAL_TOKEN, eventually, readStream } from '@pixel-atlas/service-kit/testing';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { describeApi } from '../openapi.ts';

const service = servicePerFile((env) => buildApp(loadEnv({ ...env, CONTACT_RATE_LIMIT_MAX: '3' })));

let clientCounter = 0;
/** Requests through the gateway carry the visitor's address; each case gets its own visitor. */
function asNewClient(): Record<string, string> {
  clientCounter += 1;
  return { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-client-ip': `198.51.100.${clientCounter}` };
}

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'feedback', message: 'Lovely map!' };

async function streamMessages(): Promise<Array<{ subject: string; data: any }>> {
  return (await readStream(service.stream)).map((message) => ({ subject: message.subject, data: message.event }));
}

describe('POST /api/contact', () => {
  it('stores the message and publishes contact.message.received', async () => {
    const response = await service.app.inject({ method: 'POST', url: '/api/contact', payload: valid, headers: asNewClient() });
    expect(response.statusCode).toBe(201);
    const { id } = response.json();
    const rows = await service.app.db.contactSubmission.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, name: 'Ada Lovelace', email: 'ada@example.com', subject: 'feedback', message: 'Lovely map!' });
    const events = await eventually(async () => {
      const msgs = await streamMessages();
      return msgs.length ? msgs : null;
    });
    expect(events[0]?.subject).toBe(`${service.stream.subjectPrefix}contact.message.received`);
    expect(events[0]?.data.data).toMatchObject({ id, email: 'ada@example.com', subject: 'feedback' });
  });

  it.each([
    [{ ...valid, email: 'not-an-email' }, 'email: Please enter a valid email address'],
    [{ ...valid, subject: 'spam' }, 'subject: Please choose a subject from the list'],
    [{ ...valid, message: 'x'.repeat(5001) }, 'message: Message must be at most 5000 characters'],
    [{ ...valid, name: '   ' }, 'name: Name is required'],
    [{ name: 'A', email: 'a@b.co', subject: 'general' }, 'message'],
    [{ ...valid, message: 'Lovely\u0000map' }, "message: Message can't contain control characters"],
    [{ ...valid, name: 'Ada\u202ELovelace' }, "name: Name can't contain invisible characters (zero-width spaces or text-direction marks)"],
    [
      { ...valid, message: 'Lovely\u200Bmap' },
      "message: Message can't contain invisible characters (zero-width spaces or text-direction marks)",
    ],
    [{ ...valid, name: 'Ada\nLovelace' }, 'name: Name must be on one line'],
  ])('rejects a bad payload with 400 and writes nothing (%#)', async (payload, message) => {
    const before = await service.app.db.contactSubmission.count();
    const response = await service.app.inject({ method: 'POST', url: '/api/contact', payload, headers: asNewClient() });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect(response.json().error.message).toContain(message);
    expect(await service.app.db.contactSubmission.count()).toBe(before);
  });

  it('rate-limits one client with a clear 429', async () => {
    const fromClient = asNewClient();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await service.app.inject({ method: 'POST', url: '/api/contact', payload: valid, headers: fromClient })).statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await service.app.inject({ method: 'POST', url: '/api/contact', payload: valid, headers: fromClient });
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().error.message).toMatch(/Too many requests/);
    // Another client is not affected.
    const other = await service.app.inject({ method: 'POST', url: '/api/contact', payload: valid, headers: asNewClient() });
    expect(other.statusCode).toBe(201);
  });

  it('publishes an OpenAPI document generated from the zod schemas', async () => {
    const doc = (await service.app.inject('/openapi.json')).json();
    expect(doc.paths['/api/contact'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(JSON.stringify(doc)).toContain('ContactRequest');
    expect(doc.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
  });

  it('reports ready, serves metrics by route template', async () => {
    expect((await service.app.inject('/readyz')).json()).toMatchObject({ status: 'ready', checks: { database: 'ok', nats: 'ok' } });
    const metrics = (await service.app.inject('/metrics')).body;
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/api\/contact",status_code="201",service="contact"\}/);
    expect(metrics).toContain('outbox_backlog_events');
  });
});
