import { screenContentQuery } from '@pixel-atlas/contracts/queries';
import { connectBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import { eventually, TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { describeApi } from '../openapi.ts';
import {
  adminHeaders,
  claimedEvent,
  flaggedEvent,
  plotSnapshot,
  publish,
  screenedClaimEvent,
  streamEvents,
} from '../testing/moderation-world.ts';

// No SMTP_URL: owner notifications are recorded as 'logged'.
const service = servicePerFile(
  (env) => buildApp(loadEnv({ ...env, MODERATION_EXTRA_WORDS: 'casino, Crypto-Giveaway', NOTIFY_POLL_INTERVAL_MS: '200' })),
  { bus: 'moderation-test' },
);

/** Resolves once the consumer has applied (or skipped as a duplicate) the event with this id. */
async function handled(eventId: string): Promise<void> {
  await eventually(async () => (await service.app.db.inboxEvent.count({ where: { eventId } })) === 1, 15_000);
}

async function flaggedPlots(): Promise<any[]> {
  const response = await service.app.inject({ url: '/api/admin/flagged-plots', headers: adminHeaders() });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function decide(action: 'approve' | 'reject', plotId: string, admin = 'warden') {
  return service.app.inject({ method: 'POST', url: `/api/admin/${action}-plot`, payload: { plotId }, headers: adminHeaders(admin) });
}

/** A plot sitting in the queue because the screen caught it. */
async function queuedPlot(words = ['sex'], email: string | null = null) {
  const plot = plotSnapshot({ displayName: 'Sexy Pixels', message: 'hello' });
  const event = screenedClaimEvent(plot, words, email);
  await publish(service.bus, event);
  await handled(event.id);
  return plot;
}

describe('the review queue', () => {
  it('takes in a screened claim with the words as reasons and the snapshot the admin needs', async () => {
    const plot = plotSnapshot({
      displayName: 'Damn Test Shop',
      message: 'We sell kill switches',
      link: 'https://shop.example',
      tier: 'prime',
      zone: 'startup',
      x: 40,
      y: 41,
    });
    const event = screenedClaimEvent(plot, ['test', 'damn', 'kill'], 'owner@example.com');
    await publish(service.bus, event);
    await handled(event.id);
    const item = (await flaggedPlots()).find((p) => p.id === plot.plotId);
    expect(item).toEqual({
      id: plot.plotId,
      display_name: 'Damn Test Shop',
      zone: 'startup',
      tier: 'prime',
      x: 40,
      y: 41,
      message: 'We sell kill switches',
      link: 'https://shop.example',
      created_at: plot.createdAt,
      flag_count: 0,
      reasons: ['test', 'damn', 'kill'],
      source: 'screen',
      kind: 'plot',
      edit_id: null,
      current: null,
    });
    expect(await service.app.db.plotContact.findUnique({ where: { plotId: plot.plotId } })).toMatchObject({
      notificationEmail: 'owner@example.com',
    });
  });

  it('leaves a clean claim out of the queue (but keeps the address the buyer left)', async () => {
    const plot = plotSnapshot({ displayName: 'Grace', message: 'Compilers' });
    const event = claimedEvent(plot, { notificationEmail: 'grace@example.com' });
    await publish(service.bus, event);
    await handled(event.id);
    expect((await flaggedPlots()).map((p) => p.id)).not.toContain(plot.plotId);
    expect(await service.app.db.reviewItem.count({ where: { plotId: plot.plotId } })).toBe(0);
    expect(await service.app.db.plotContact.findUnique({ where: { plotId: plot.plotId } })).toMatchObject({
      notificationEmail: 'grace@example.com',
    });
  });

  it('gathers 50 flags from 50 visitors into one pending review with flag_count 50, and hides nothing itself', async () => {
    const plot = plotSnapshot({ displayName: 'Popular', message: 'Everyone clicks here' });
    const events = Array.from({ length: 50 }, (_, i) => flaggedEvent(plot, i + 1));
    await Promise.all(events.map((e) => publish(service.bus, e)));
    await eventually(
      async () => (await service.app.db.inboxEvent.count({ where: { eventId: { in: events.map((e) => e.id) } } })) === 50,
      20_000,
    );
    const items = await service.app.db.reviewItem.findMany({ where: { plotId: plot.plotId } });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'pending', flagCount: 50, source: 'visitor', reasons: ['Flagged by a visitor'] });
    expect((await flaggedPlots()).filter((p) => p.id === plot.plotId)).toHaveLength(1);
    // Flags only put the plot in front of an admin: no decision, no event that could hide it.
    const decisions = (await streamEvents(service.bus, 'moderation.')).filter((e) => e.data.plotId === plot.plotId);
    expect(decisions).toEqual([]);
    expect(await service.app.db.moderationAudit.count({ where: { plotId: plot.plotId } })).toBe(0);
  });

  it('joins a visitor flag to a screened review: source both, reasons merged, count updated', async () => {
    const plot = await queuedPlot(['sex']);
    const first = flaggedEvent(plot, 1, 'Spam');
    const second = flaggedEvent(plot, 2, null);
    await publish(service.bus, first);
    await publish(service.bus, second);
    await handled(first.id);
    await handled(second.id);
    const item = (await flaggedPlots()).find((p) => p.id === plot.plotId);
    expect(item).toMatchObject({ source: 'both', flag_count: 2, reasons: ['sex', 'Spam', 'Flagged by a visitor'] });
  });

  it('joins a screened claim that arrives after a visitor flag of the same plot', async () => {
    const plot = plotSnapshot({ displayName: 'Porn Palace' });
    const flag = flaggedEvent(plot, 1);
    await publish(service.bus, flag);
    await handled(flag.id);
    const claim = screenedClaimEvent(plot, ['porn']);
    await publish(service.bus, claim);
    await handled(claim.id);
    expect(await service.app.db.reviewItem.findMany({ where: { plotId: plot.plotId } })).toEqual([
      expect.objectContaining({ status: 'pending', source: 'both', flagCount: 1, reasons: ['porn', 'Flagged by a visitor'] }),
    ]);
  });

  it('counts an event delivered twice (same id, another message id) once', async () => {
    const plot = plotSnapshot();
    const flag = flaggedEvent(plot, 1, 'Looks like a scam');
    await publish(service.bus, flag, `${flag.id}-first`);
    await publish(service.bus, flag, `${flag.id}-again`);
    const later = flaggedEvent(plot, 2, 'Rude');
    await publish(service.bus, later);
    await handled(later.id);
    await eventually(
      async () =>
        /events_handled_total\{consumer="moderation",outcome="duplicate",service="moderation"\} [1-9]/.test(
          await service.app.metrics.metrics(),
        ),
      15_000,
    );
    expect(await service.app.db.inboxEvent.count({ where: { eventId: flag.id } })).toBe(1);
    const items = await service.app.db.reviewItem.findMany({ where: { plotId: plot.plotId } });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ flagCount: 2, reasons: ['Looks like a scam', 'Rude'] });
  });

  it('lists pending reviews only, oldest first', async () => {
    // Reviews of its own, one of them decided: the list it reads does not lean on the tests before it.
    for (const words of [['sex'], ['damn'], ['kill'], ['porn'], ['hate']]) await queuedPlot(words);
    expect((await decide('approve', (await queuedPlot(['drug'])).plotId)).statusCode).toBe(200);
    const list = await flaggedPlots();
    const queuedAt = await service.app.db.reviewItem.findMany({ where: { status: 'pending' }, orderBy: { queuedAt: 'asc' } });
    expect(list.map((p) => p.id)).toEqual(queuedAt.map((i) => i.plotId));
    expect(list.length).toBeGreaterThanOrEqual(4);
  });
});

describe('approve and reject: one decision per review, by an admin', () => {
  it('approves: the review leaves the queue, moderation.plot.approved names the admin, the audit log has the row', async () => {
    const plot = await queuedPlot(['sex']);
    const response = await decide('approve', plot.plotId, 'alice');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ plotId: plot.plotId, decision: 'approved', decidedAt: expect.any(String) });
    expect((await flaggedPlots()).map((p) => p.id)).not.toContain(plot.plotId);

    const event = await eventually(async () =>
      (await streamEvents(service.bus, 'moderation.plot.approved')).find((e) => e.data.plotId === plot.plotId),
    );
    expect(event.data).toEqual({ plotId: plot.plotId, decidedBy: 'alice', decidedAt: body.decidedAt });

    const audit = await service.app.db.moderationAudit.findMany({ where: { plotId: plot.plotId } });
    expect(audit).toEqual([expect.objectContaining({ decision: 'approved', admin: 'alice', decidedAt: new Date(body.decidedAt) })]);
    expect(audit[0]?.snapshot).toMatchObject({ id: plot.plotId, display_name: 'Sexy Pixels', reasons: ['sex'], source: 'screen' });
  });

  it('rejects: moderation.plot.rejected and an audit row', async () => {
    const plot = await queuedPlot(['drug']);
    const response = await decide('reject', plot.plotId, 'bob');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ plotId: plot.plotId, decision: 'rejected' });
    const event = await eventually(async () =>
      (await streamEvents(service.bus, 'moderation.plot.rejected')).find((e) => e.data.plotId === plot.plotId),
    );
    expect(event.data.decidedBy).toBe('bob');
    expect(await service.app.db.moderationAudit.findMany({ where: { plotId: plot.plotId } })).toEqual([
      expect.objectContaining({ decision: 'rejected', admin: 'bob' }),
    ]);
  });

  it('answers 409 to a second decision and changes nothing', async () => {
    const plot = await queuedPlot(['hate']);
    expect((await decide('approve', plot.plotId)).statusCode).toBe(200);
    await eventually(async () => (await streamEvents(service.bus, 'moderation.')).some((e) => e.data.plotId === plot.plotId));
    for (const action of ['approve', 'reject'] as const) {
      const again = await decide(action, plot.plotId, 'mallory');
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toEqual({ code: 'ALREADY_DECIDED', message: 'This plot has already been reviewed.' });
    }
    // A decision's event is written in its own transaction, before its answer: the refused ones wrote none.
    const outboxed = await service.app.db.$queryRawUnsafe<Array<{ subject: string }>>(
      `SELECT subject FROM moderation.outbox_events WHERE payload->'data'->>'plotId' = $1`,
      plot.plotId,
    );
    expect(outboxed).toEqual([{ subject: 'moderation.plot.approved' }]);
    expect((await streamEvents(service.bus, 'moderation.')).filter((e) => e.data.plotId === plot.plotId)).toHaveLength(1);
    expect(await service.app.db.moderationAudit.count({ where: { plotId: plot.plotId } })).toBe(1);
    expect(await service.app.db.reviewItem.findFirst({ where: { plotId: plot.plotId } })).toMatchObject({
      status: 'approved',
      decidedBy: 'warden',
    });
  });

  it('answers 404 for a plot it has never seen, 400 for a malformed id', async () => {
    const unknown = await decide('approve', '0b4f7d38-1f0e-4b8e-9a55-8d8a7a1c2e3f');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'PLOT_NOT_FOUND', message: 'Plot not found' });
    expect((await decide('reject', '0b4f7d38-1f0e-4b8e-9a55-8d8a7a1c2e3f')).statusCode).toBe(404);
    const malformed = await service.app.inject({
      method: 'POST',
      url: '/api/admin/approve-plot',
      payload: { plotId: 'nope' },
      headers: adminHeaders(),
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('refuses everyone but an admin vouched for by the gateway (401), and changes nothing', async () => {
    const plot = await queuedPlot(['sex']);
    const attempts = [
      { method: 'GET' as const, url: '/api/admin/flagged-plots', headers: {} },
      { method: 'GET' as const, url: '/api/admin/moderation/audit', headers: {} },
      { method: 'POST' as const, url: '/api/admin/approve-plot', headers: {}, payload: { plotId: plot.plotId } },
      // The admin header without the internal token is ignored: nobody can claim to be an admin directly.
      { method: 'POST' as const, url: '/api/admin/reject-plot', headers: { 'x-admin-user': 'forged' }, payload: { plotId: plot.plotId } },
      {
        method: 'POST' as const,
        url: '/api/admin/approve-plot',
        headers: { 'x-internal-token': 'wrong-token-0123456789', 'x-admin-user': 'forged' },
        payload: { plotId: plot.plotId },
      },
      // The token alone (a visitor's request through the gateway) is not an admin either.
      {
        method: 'POST' as const,
        url: '/api/admin/approve-plot',
        headers: { 'x-internal-token': TEST_INTERNAL_TOKEN },
        payload: { plotId: plot.plotId },
      },
    ];
    for (const attempt of attempts) {
      const response = await service.app.inject(attempt);
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    }
    expect(await service.app.db.reviewItem.findFirst({ where: { plotId: plot.plotId } })).toMatchObject({ status: 'pending' });
  });
});

describe('approve and reject: races, reopened reviews, notifications and the audit log', () => {
  it('lets exactly one of two admins deciding at once succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const plot = await queuedPlot(['kill']);
      const responses = await Promise.all([decide('approve', plot.plotId, 'alice'), decide('reject', plot.plotId, 'bob')]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winner = responses.find((r) => r.statusCode === 200)!.json();
      expect(await service.app.db.moderationAudit.findMany({ where: { plotId: plot.plotId } })).toEqual([
        expect.objectContaining({ decision: winner.decision }),
      ]);
      await eventually(async () => (await streamEvents(service.bus, 'moderation.')).some((e) => e.data.plotId === plot.plotId));
      const events = (await streamEvents(service.bus, 'moderation.')).filter((e) => e.data.plotId === plot.plotId);
      expect(events.map((e) => e.type)).toEqual([`moderation.plot.${winner.decision}`]);
    }
  });

  it('reopens an approved plot flagged again by visitors as a new review; ignores flags on a rejected plot', async () => {
    const approved = await queuedPlot(['sex']);
    const earlyFlag = flaggedEvent(approved, 1, null, new Date(Date.now() - 60_000));
    expect((await decide('approve', approved.plotId)).statusCode).toBe(200);
    // A flag raised before the decision but delivered after it was covered by that decision.
    await publish(service.bus, earlyFlag);
    await handled(earlyFlag.id);
    expect(await service.app.db.reviewItem.count({ where: { plotId: approved.plotId, status: 'pending' } })).toBe(0);

    const newFlag = flaggedEvent(approved, 2, 'Changed my mind: offensive');
    await publish(service.bus, newFlag);
    await handled(newFlag.id);
    const items = await service.app.db.reviewItem.findMany({ where: { plotId: approved.plotId }, orderBy: { queuedAt: 'asc' } });
    expect(items.map((i) => i.status)).toEqual(['approved', 'pending']);
    expect(items[1]).toMatchObject({ source: 'visitor', flagCount: 2, reasons: ['Changed my mind: offensive'] });
    expect((await flaggedPlots()).find((p) => p.id === approved.plotId)).toMatchObject({ source: 'visitor', flag_count: 2 });
    // The new review is decided on its own.
    expect((await decide('reject', approved.plotId, 'carol')).statusCode).toBe(200);
    expect(
      (await service.app.db.moderationAudit.findMany({ where: { plotId: approved.plotId }, orderBy: { decidedAt: 'asc' } })).map(
        (a) => a.decision,
      ),
    ).toEqual(['approved', 'rejected']);

    const rejected = await queuedPlot(['porn']);
    expect((await decide('reject', rejected.plotId)).statusCode).toBe(200);
    const lateFlag = flaggedEvent(rejected, 3);
    await publish(service.bus, lateFlag);
    await handled(lateFlag.id);
    expect(await service.app.db.reviewItem.findMany({ where: { plotId: rejected.plotId } })).toEqual([
      expect.objectContaining({ status: 'rejected' }),
    ]);
    expect((await flaggedPlots()).map((p) => p.id)).not.toContain(rejected.plotId);
  });

  it('records the owner notification as logged when no SMTP server is configured', async () => {
    const plot = await queuedPlot(['damn'], 'owner@example.com');
    expect((await decide('approve', plot.plotId)).statusCode).toBe(200);
    const row = await eventually(async () => {
      const found = await service.app.db.notification.findFirst({ where: { plotId: plot.plotId } });
      return found?.status === 'logged' ? found : null;
    });
    expect(row).toMatchObject({
      email: 'owner@example.com',
      kind: 'approved',
      subject: "Your plot 'Sexy Pixels' is now live on Pixel Atlas",
      attempts: 1,
    });
    // A plot whose buyer left no address gets no notification row.
    const silent = await queuedPlot(['damn']);
    expect((await decide('reject', silent.plotId)).statusCode).toBe(200);
    expect(await service.app.db.notification.count({ where: { plotId: silent.plotId } })).toBe(0);
  });

  it('lets an operator read the audit log, newest first', async () => {
    const first = await queuedPlot(['shit']);
    const second = await queuedPlot(['fuck'], 'second@example.com');
    await decide('reject', first.plotId, 'dora');
    await decide('approve', second.plotId, 'erin');
    const response = await service.app.inject({ url: '/api/admin/moderation/audit?limit=2', headers: adminHeaders() });
    expect(response.statusCode).toBe(200);
    const { entries } = response.json();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      plotId: second.plotId,
      decision: 'approved',
      admin: 'erin',
      snapshot: { id: second.plotId, reasons: ['fuck'] },
    });
    expect(entries[0].notification).toMatchObject({ status: expect.stringMatching(/pending|logged/) });
    expect(entries[1]).toMatchObject({ plotId: first.plotId, decision: 'rejected', admin: 'dora', notification: null });
    expect(new Date(entries[0].decidedAt) >= new Date(entries[1].decidedAt)).toBe(true);
    expect((await service.app.inject({ url: '/api/admin/moderation/audit?limit=0', headers: adminHeaders() })).statusCode).toBe(400);
  });
});

describe('the content screen over NATS', () => {
  it('answers another connection: the spec list, the extra words, the link host', async () => {
    const other = await connectBus(service.stream.busSettings('plots-like-client'));
    try {
      expect(await query(other, screenContentQuery, { texts: ['Ada', 'Clean notes'], linkHost: 'ada.example' })).toEqual({
        flagged: false,
        words: [],
      });
      expect(await query(other, screenContentQuery, { texts: ['TEST shop', 'Kill it'], linkHost: null })).toEqual({
        flagged: true,
        words: ['test', 'kill'],
      });
      expect(
        await query(other, screenContentQuery, { texts: ['Lucky', 'Join the crypto-giveaway'], linkHost: 'big-casino.example' }),
      ).toEqual({
        flagged: true,
        words: ['casino', 'crypto-giveaway'],
      });
      // Whole words after normalisation, the browser's own function: 'Essex' passes, 'sеx' with a Cyrillic е does not.
      expect(
        await query(other, screenContentQuery, { texts: ['Essex Skill School', 'Casinos? s\u0435x'], linkHost: 'latest.example' }),
      ).toEqual({
        flagged: true,
        words: ['sex', 'casino'],
      });
      await expect(query(other, screenContentQuery, { texts: 'not a list' } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(query(other, screenContentQuery, { texts: ['x'.repeat(2001)], linkHost: null })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    } finally {
      await other.nc.drain();
    }
  });
});

describe('operations', () => {
  it('reports ready and exports its metrics', async () => {
    // Its own decisions, notification and screen hit: the counters it reads do not lean on the tests before it.
    const approved = await queuedPlot(['sex'], 'metrics@example.com');
    expect((await decide('approve', approved.plotId)).statusCode).toBe(200);
    expect((await decide('reject', (await queuedPlot(['sex'])).plotId)).statusCode).toBe(200);
    expect(await query(service.bus, screenContentQuery, { texts: ['Kill it'], linkHost: null })).toMatchObject({ flagged: true });
    await eventually(
      async () => (await service.app.db.notification.findFirst({ where: { plotId: approved.plotId } }))?.status === 'logged',
    );
    expect((await service.app.inject('/readyz')).json()).toMatchObject({ status: 'ready', checks: { database: 'ok', nats: 'ok' } });
    const metrics = (await service.app.inject('/metrics')).body;
    expect(metrics).toMatch(/moderation_decisions_total\{decision="approved",service="moderation"\} [1-9]/);
    expect(metrics).toMatch(/moderation_decisions_total\{decision="rejected",service="moderation"\} [1-9]/);
    expect(metrics).toMatch(/moderation_screen_hits_total\{service="moderation"\} [1-9]/);
    const pending = await service.app.db.reviewItem.count({ where: { status: 'pending' } });
    expect(metrics).toContain(`moderation_queue_pending{service="moderation"} ${pending}`);
    expect(metrics).toMatch(/moderation_notifications_total\{outcome="logged",service="moderation"\} [1-9]/);
  });

  it('documents its API in OpenAPI', async () => {
    const doc = (await service.app.inject('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/flagged-plots',
        '/api/admin/approve-plot',
        '/api/admin/reject-plot',
        '/api/admin/moderation/audit',
      ]),
    );
    expect(JSON.stringify(doc)).toContain('FlaggedPlot');
    expect(doc.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
  });
});
