import { describe, expect, it } from 'vitest';
import { redactSecretPaths, createServiceApp } from './service.ts';

const TOKEN = 'Qm9yaXMgS2FybG9mZiBwbGF5ZWQgdGhlIG1vbnN0ZXIu_-x';

describe('request logs', () => {
  it("never carry an owner's token: /manage/<token> and /api/manage/<token> are logged redacted", async () => {
    const lines: string[] = [];
    const app = await createServiceApp({
      name: 'logs',
      internalToken: 'internal-token-of-thirty-two-chars!',
      trustRequestIdFrom: 'gateway',
      logStream: { write: (line: string) => lines.push(line) },
    });
    app.get('/api/manage/:token', async () => ({ ok: true }));
    app.patch('/api/manage/:token/avatar', async () => ({ ok: true }));
    for (const [method, url] of [
      ['GET', `/api/manage/${TOKEN}`],
      ['PATCH', `/api/manage/${TOKEN}/avatar?x=1`],
      ['GET', `/manage/${TOKEN}`],
      ['GET', `/API/Manage/${TOKEN}`],
    ] as const) {
      await app.inject({ method, url });
    }
    // What @fastify/reply-from logs for each request the gateway proxies.
    app.log.info({ source: `/api/manage/${TOKEN}/rotate` }, 'fetching from remote server');
    await app.close();
    const text = lines.join('');
    expect(text).toContain('"source":"/api/manage/[redacted]/rotate"');
    expect(lines.length).toBeGreaterThanOrEqual(8);
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('"url":"/api/manage/[redacted]"');
    expect(text).toContain('"url":"/api/manage/[redacted]/avatar?x=1"');
    expect(text).toContain('"url":"/manage/[redacted]"');
  });

  it('redactSecretPaths leaves other paths alone', () => {
    expect(redactSecretPaths('/plot/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11?ref=x')).toBe('/plot/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11?ref=x');
    expect(redactSecretPaths(`/manage/${TOKEN}#frag`)).toBe('/manage/[redacted]#frag');
  });
});
