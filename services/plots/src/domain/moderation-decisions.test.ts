import { randomUUID } from 'node:crypto';
import { eventually } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { assert, beforeAll, describe, expect, it } from 'vitest';
import {
  buyAndClaim,
  claim,
  claimBody,
  decide,
  flaggedPlots,
  flagPlot,
  outboxEvents,
  publishEvent,
  streamEvents,
} from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { UNDER_REVIEW_WARNING } from './screen-claim-content.ts';

// The operator's extra word proves the claim is screened by moderation itself, not only by the floor list.
const world = worldPerFile({ moderationEnv: { MODERATION_EXTRA_WORDS: 'casino' } });
let replica: FastifyInstance;
beforeAll(async () => {
  replica = await world.spawn('plots');
});

const nextSpot = spotSupply(world, 4, 60);
type PlotDto = { id: string; x: number; y: number; display_name: string; flagged: boolean; reviewed: boolean; region_name?: string | null };

async function claimed(overrides: Record<string, unknown> = {}, tier: 'basic' | 'featured' = 'basic') {
  const spot = nextSpot();
  const { sessionId, response } = await buyAndClaim(
    world,
    { tier, ...spot },
    { display_name: 'Clean Name', message: 'Nothing to see', ...overrides },
  );
  expect(response.statusCode).toBe(201);
  return { ...response.json<{ plot: PlotDto; warning?: string }>(), sessionId, spot };
}

const ids = async (app: FastifyInstance = world.plots) =>
  (await app.inject('/api/plots')).json().map((p: { id: string }) => p.id) as string[];
const eventsFor = async (type: string, plotId: string) => (await streamEvents(world, type)).filter((e) => e.data.plotId === plotId);
const outboxedFor = async (type: string, plotId: string) =>
  (await outboxEvents(world, 'plots', type)).filter((e) => e.data.plotId === plotId);
const queued = async (plotId: string) => (await flaggedPlots(world)).find((p) => p.id === plotId);
/** A metric summed over both replicas (they share the durable consumer, so each event is counted by one of them). */
async function metric(pattern: string): Promise<number> {
  let total = 0;
  for (const app of [world.plots, replica]) {
    const match = (await app.inject('/metrics')).body.match(new RegExp(`${pattern} (\\d+)`));
    total += match ? Number(match[1]) : 0;
  }
  return total;
}
const DUPLICATES = 'events_handled_total\\{consumer="plots",outcome="duplicate",service="plots"\\}';
async function plotRow(plotId: string) {
  const [row] = await world.db.query<Record<string, any>>(
    `SELECT visible, flagged, reviewed, removed_at, region_name FROM plots.plots WHERE id = $1`,
    [plotId],
  );
  assert(row, `no plot ${plotId}`);
  return row;
}

describe('screening at claim time (moderation answers over NATS)', () => {
  it('a claim with a listed word is created hidden with the warning, absent from every public read, and in the review queue', async () => {
    const { plot, warning, sessionId, spot } = await claimed({
      display_name: 'Drug Deals Daily',
      message: 'Fresh every day',
      notification_email: 'owner@example.com',
    });
    expect(warning).toBe(UNDER_REVIEW_WARNING);
    expect(plot).toMatchObject({ display_name: 'Drug Deals Daily', flagged: true, reviewed: false });

    expect(await ids()).not.toContain(plot.id);
    const byId = await world.plots.inject(`/api/plots/${plot.id}`);
    expect(byId.statusCode).toBe(404);
    expect(byId.json().error).toEqual({ code: 'PLOT_NOT_FOUND', message: 'Plot not found' });
    expect((await world.plots.inject(`/api/plots/${plot.id}/avatar`)).statusCode).toBe(404);
    expect((await world.plots.inject(`/api/users/${encodeURIComponent('Drug Deals Daily')}/plots`)).json().plots).toEqual([]);
    // Hidden, but the land is the buyer's: nobody else can buy it.
    expect((await world.plots.inject(`/api/position-available?x=${spot.x}&y=${spot.y}`)).json()).toEqual({
      available: false,
      reason: 'review',
    });
    expect(await plotRow(plot.id)).toMatchObject({ visible: false, flagged: true, reviewed: false, removed_at: null });

    const event = await eventually(async () => (await eventsFor('plots.plot.claimed', plot.id))[0]);
    expect(event.data).toMatchObject({ sessionId, visible: false, screenedWords: ['drug'], notificationEmail: 'owner@example.com' });
    const review = await eventually(() => queued(plot.id), 15_000);
    expect(review).toMatchObject({ display_name: 'Drug Deals Daily', source: 'screen', reasons: ['drug'], flag_count: 0 });
    expect((await world.plots.inject('/metrics')).body).toMatch(
      /plots_claims_screened_total\{screened_by="moderation",outcome="held",service="plots"\} 1/,
    );

    // The same claim sent again (a lost response) still tells the buyer it is under review.
    const replay = await claim(
      world,
      await claimBody(sessionId, 'basic', spot.x, spot.y, {
        display_name: 'Drug Deals Daily',
        message: 'Fresh every day',
        notification_email: 'owner@example.com',
      }),
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ plot, warning: UNDER_REVIEW_WARNING });
  });

  it("screens the link's host and moderation's extra words too; a clean claim is published at once", async () => {
    const byHost = await claimed({ link: 'https://www.porn-hub.example/page' });
    expect(byHost.warning).toBe(UNDER_REVIEW_WARNING);
    const extra = await claimed({ message: 'Best casino in town' });
    expect(extra.warning).toBe(UNDER_REVIEW_WARNING);
    const events = await eventually(async () => {
      const found = [...(await eventsFor('plots.plot.claimed', byHost.plot.id)), ...(await eventsFor('plots.plot.claimed', extra.plot.id))];
      return found.length === 2 ? found : null;
    });
    expect(events.map((e) => e.data.screenedWords)).toEqual([['porn'], ['casino']]);

    const clean = await claimed({ display_name: 'Grace Hopper', message: 'Debugging since 1947' });
    expect(clean.warning).toBeUndefined();
    expect(clean.plot.flagged).toBe(false);
    expect(await ids()).toContain(clean.plot.id);
  });

  it('stores the region of the top-left tile on the plot and returns it', async () => {
    const { plot, spot } = await claimed({}, 'featured');
    const [tile] = await world.db.query<{ zone_name: string }>(`SELECT zone_name FROM map.map_tiles WHERE x = $1 AND y = $2`, [
      spot.x,
      spot.y,
    ]);
    assert(tile, `no map tile at ${spot.x},${spot.y}`);
    expect(tile.zone_name).not.toBe('Water');
    expect(plot.region_name).toBe(tile.zone_name);
    expect((await plotRow(plot.id)).region_name).toBe(tile.zone_name);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().region_name).toBe(tile.zone_name);
    expect((await world.plots.inject('/api/plots')).json().find((p: PlotDto) => p.id === plot.id).region_name).toBe(tile.zone_name);
  });
});

describe('moderation.plot.approved', () => {
  it('approving a held plot through moderation makes it visible and reviewed everywhere, and emits plots.plot.published once', async () => {
    const { plot } = await claimed({ display_name: 'Killer Apps Inc' });
    await eventually(() => queued(plot.id), 15_000);
    await replica.inject('/api/plots'); // warm the other replica's cache: the event must drop it

    const approved = await decide(world, 'approve', plot.id);
    expect(approved.statusCode).toBe(200);
    const shown = await eventually(async () => {
      const response = await world.plots.inject(`/api/plots/${plot.id}`);
      return response.statusCode === 200 ? response.json() : null;
    }, 15_000);
    expect(shown).toMatchObject({ id: plot.id, display_name: 'Killer Apps Inc', flagged: false, reviewed: true });
    expect(await ids()).toContain(plot.id);
    await eventually(async () => (await ids(replica)).includes(plot.id));
    expect((await world.plots.inject(`/api/users/${encodeURIComponent('killer apps inc')}/plots`)).json().plots).toEqual([shown]);
    expect((await world.plots.inject(`/api/plots/${plot.id}/avatar`)).statusCode).toBe(200);
    expect(await plotRow(plot.id)).toMatchObject({ visible: true, flagged: false, reviewed: true, removed_at: null });
    const published = await eventually(async () => (await eventsFor('plots.plot.published', plot.id))[0]);
    expect(published.data).toEqual({ plotId: plot.id });

    // Approving twice: moderation refuses (409), and a redelivered approval changes nothing twice.
    expect((await decide(world, 'approve', plot.id)).statusCode).toBe(409);
    const approval = (await streamEvents(world, 'moderation.plot.approved')).find((e) => e.data.plotId === plot.id);
    assert(approval, 'moderation published the approval');
    const duplicates = await metric(DUPLICATES);
    await redeliver(approval);
    // Handled (its transaction committed) as a duplicate: whatever it wrote is in the outbox by now.
    await eventually(async () => (await metric(DUPLICATES)) > duplicates);
    expect(await outboxedFor('plots.plot.published', plot.id)).toHaveLength(1);
    expect(await eventsFor('plots.plot.published', plot.id)).toHaveLength(1);
  });

  it('approving a visitor-flagged plot clears the flag (it was visible all along)', async () => {
    const { plot } = await claimed({ display_name: 'Honest Baker' });
    expect((await flagPlot(world, plot.id, { ip: '198.19.0.1', reason: 'Looks fake' })).statusCode).toBe(200);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().flagged).toBe(true);
    await eventually(() => queued(plot.id), 15_000);
    expect((await decide(world, 'approve', plot.id)).statusCode).toBe(200);
    const cleared = await eventually(async () => {
      const body = (await world.plots.inject(`/api/plots/${plot.id}`)).json();
      return body.flagged === false ? body : null;
    }, 15_000);
    expect(cleared).toMatchObject({ flagged: false, reviewed: true });
    // The same visitor cannot raise it again; a new visitor can (and moderation opens a new review).
    expect((await flagPlot(world, plot.id, { ip: '198.19.0.1' })).statusCode).toBe(200);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().flagged).toBe(false);
    expect((await flagPlot(world, plot.id, { ip: '198.19.0.2' })).statusCode).toBe(200);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).json().flagged).toBe(true);
    await eventually(async () => (await queued(plot.id))?.flag_count === 2, 15_000);
  });
});

/** The same event delivered again (a new JetStream message, so the stream's duplicate window does not drop it). */
async function redeliver(event: { id: string; type: string; data: unknown }) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstream } = await import('@nats-io/jetstream');
  const nc = await connect(world.stream.connectOptions());
  try {
    await jetstream(nc).publish(
      `${world.stream.subjectPrefix}${event.type}`,
      JSON.stringify({ ...event, occurredAt: new Date().toISOString() }),
      {
        msgID: randomUUID(),
      },
    );
  } finally {
    await nc.close();
  }
}

describe('moderation.plot.rejected', () => {
  it('rejecting a flagged plot removes it everywhere, frees its land, keeps the row and the payment record (unlinked)', async () => {
    const { plot, sessionId, spot } = await claimed({ display_name: 'Rejected Rita', message: 'Scam offers' }, 'featured');
    await replica.inject('/api/plots');
    expect((await flagPlot(world, plot.id, { ip: '198.19.1.1', reason: 'Scam' })).statusCode).toBe(200);
    await eventually(() => queued(plot.id), 15_000);
    // payments linked the payment to the plot when it heard plots.plot.claimed
    const payment = async () =>
      (
        await world.db.query<{ plot_id: string | null; status: string }>(
          `SELECT plot_id, status FROM payments.payments WHERE stripe_session_id = $1`,
          [sessionId],
        )
      )[0];
    await eventually(async () => (await payment())?.plot_id === plot.id);

    expect((await decide(world, 'reject', plot.id)).statusCode).toBe(200);
    await eventually(async () => (await world.plots.inject(`/api/plots/${plot.id}`)).statusCode === 404, 15_000);
    expect(await ids()).not.toContain(plot.id);
    await eventually(async () => !(await ids(replica)).includes(plot.id));
    expect((await world.plots.inject(`/api/users/${encodeURIComponent('Rejected Rita')}/plots`)).json().plots).toEqual([]);
    expect((await world.plots.inject(`/api/plots/${plot.id}/avatar`)).statusCode).toBe(404);
    expect((await world.plots.inject(`/api/position-available?x=${spot.x}&y=${spot.y}&tier=featured`)).json()).toEqual({ available: true });
    expect((await flagPlot(world, plot.id, { ip: '198.19.1.2' })).statusCode).toBe(404);

    // Kept for the record: the row (removed, hidden), not the footprint or the avatar.
    const row = await plotRow(plot.id);
    expect(row).toMatchObject({ visible: false });
    expect(row.removed_at).toBeInstanceOf(Date);
    const [left] = await world.db.query(
      `SELECT (SELECT count(*)::int FROM plots.footprints WHERE plot_id = $1) AS footprints, (SELECT count(*)::int FROM plots.plot_avatars WHERE plot_id = $1) AS avatars`,
      [plot.id],
    );
    expect(left).toEqual({ footprints: 0, avatars: 0 });
    const removed = await eventually(async () => (await eventsFor('plots.plot.removed', plot.id))[0]);
    expect(removed.data).toEqual({ plotId: plot.id, sessionId, reason: 'rejected' });
    expect(await eventually(async () => ((await payment())?.plot_id === null ? payment() : null))).toEqual({
      plot_id: null,
      status: 'paid',
    });

    // The removed plot's session stays used (removal without refund).
    const again = await claim(
      world,
      await claimBody(sessionId, 'featured', spot.x, spot.y, { display_name: 'Rejected Rita', message: 'Scam offers' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('SESSION_ALREADY_USED');

    // A new buyer can claim the freed land.
    const { response: newClaim } = await buyAndClaim(
      world,
      { tier: 'featured', ...spot },
      { display_name: 'New Owner', message: 'Fresh start' },
    );
    expect(newClaim.statusCode).toBe(201);
    expect(await ids()).toContain(newClaim.json().plot.id);

    // Duplicate and late events change nothing: a redelivered rejection, then an approval of the removed plot.
    const rejection = (await streamEvents(world, 'moderation.plot.rejected')).find((e) => e.data.plotId === plot.id);
    assert(rejection, 'moderation published the rejection');
    await redeliver(rejection);
    await publishEvent(world, 'moderation.plot.approved', {
      plotId: plot.id,
      decidedBy: 'late-admin',
      decidedAt: new Date().toISOString(),
    });
    // Both handled: the inbox recognised the redelivered decisions (the approval above, the rejection here)...
    await eventually(async () => (await metric(DUPLICATES)) === 2);
    // ...and the late approval found the plot removed, and its transaction committed (its inbox row is there).
    await eventually(async () => (await metric('plots_moderation_decisions_total\\{outcome="ignored-removed",service="plots"\\}')) === 1);
    expect(await metric('plots_moderation_decisions_total\\{outcome="removed",service="plots"\\}')).toBe(1);
    const late = (await streamEvents(world, 'moderation.plot.approved')).find(
      (e) => e.data.plotId === plot.id && e.data.decidedBy === 'late-admin',
    );
    assert(late, 'the late approval is on the stream');
    await eventually(async () => (await world.db.count(`plots.inbox_events WHERE event_id = $1::uuid`, [late.id])) === 1);
    // All three committed: anything they (wrongly) emitted is in the outbox, whether the relay sent it yet or not.
    expect(await outboxedFor('plots.plot.removed', plot.id)).toHaveLength(1);
    expect(await outboxedFor('plots.plot.published', plot.id)).toHaveLength(0);
    expect(await eventsFor('plots.plot.removed', plot.id)).toHaveLength(1);
    expect(await eventsFor('plots.plot.published', plot.id)).toHaveLength(0);
    expect((await plotRow(plot.id)).visible).toBe(false);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).statusCode).toBe(404);
  });

  it('rejecting a held (screened) plot removes it without it ever having been public', async () => {
    const { plot, spot } = await claimed({ display_name: 'Shit Post Central' });
    await eventually(() => queued(plot.id), 15_000);
    expect((await decide(world, 'reject', plot.id)).statusCode).toBe(200);
    await eventually(async () => (await plotRow(plot.id)).removed_at !== null, 15_000);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).statusCode).toBe(404);
    expect((await world.plots.inject(`/api/position-available?x=${spot.x}&y=${spot.y}`)).json()).toEqual({ available: true });
    await eventually(async () => (await eventsFor('plots.plot.removed', plot.id)).length === 1);
  });
});
