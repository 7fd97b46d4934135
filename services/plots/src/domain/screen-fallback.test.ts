import { connect, type NatsConnection } from '@nats-io/transport-node';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { assert, describe, expect, it } from 'vitest';
import { buyAndPay, claim, claimBody, decide, flagPlot, flaggedPlots, streamEvents } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { UNDER_REVIEW_WARNING } from './screen-claim-content.ts';

const SCREEN_TIMEOUT_MS = 600;
// Moderation is not running: claims must neither fail nor publish unscreened content.
const world = worldPerFile({ moderation: false, plotsEnv: { SCREEN_QUERY_TIMEOUT_MS: String(SCREEN_TIMEOUT_MS) } });

const nextSpot = spotSupply(world, 2, 60);
async function claimTimed(overrides: Record<string, unknown>) {
  const spot = nextSpot();
  const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
  const body = await claimBody(sessionId, 'basic', spot.x, spot.y, overrides);
  const started = Date.now();
  const response = await claim(world, body);
  return { response, ms: Date.now() - started, sessionId };
}
const claimedEvent = async (plotId: string) =>
  eventually(async () => (await streamEvents(world, 'plots.plot.claimed')).find((e) => e.data.plotId === plotId));
const ids = async () => (await world.plots.inject('/api/plots')).json().map((p: { id: string }) => p.id) as string[];
const held: string[] = [];
const published: string[] = [];

describe('moderation down at claim time', () => {
  it('no moderation replica: a clean claim is published, a listed word is held for review by the local floor screen', async () => {
    const clean = await claimTimed({ display_name: 'Calm Cartographer', message: 'Maps and more' });
    expect(clean.response.statusCode).toBe(201);
    expect(clean.response.json().warning).toBeUndefined();
    // Nobody listens: NATS says so at once, the claim does not wait for the timeout.
    expect(clean.ms).toBeLessThan(SCREEN_TIMEOUT_MS * 3);
    const cleanPlot = clean.response.json().plot;
    expect(await ids()).toContain(cleanPlot.id);
    published.push(cleanPlot.id);
    // Flags need no moderation either: the event waits in the stream.
    expect((await flagPlot(world, cleanPlot.id, { ip: '198.18.50.1', reason: 'Copied my map' })).statusCode).toBe(200);

    const dirty = await claimTimed({ display_name: 'Kill Switch Co', message: 'hello' });
    expect(dirty.response.statusCode).toBe(201);
    expect(dirty.response.json().warning).toBe(UNDER_REVIEW_WARNING);
    const plot = dirty.response.json().plot;
    expect(plot.flagged).toBe(true);
    expect(await ids()).not.toContain(plot.id);
    expect((await world.plots.inject(`/api/plots/${plot.id}`)).statusCode).toBe(404);
    expect((await claimedEvent(plot.id)).data).toMatchObject({ visible: false, screenedWords: ['kill'], sessionId: dirty.sessionId });
    held.push(plot.id);
    expect((await world.plots.inject('/metrics')).body).toMatch(
      /plots_claims_screened_total\{screened_by="floor",outcome="held",service="plots"\} 1/,
    );

    // The floor screen is the shared whole-word screen: names that merely contain a listed word are published,
    // a listed word disguised with a Cyrillic е and a soft hyphen (a zero-width space is refused outright: contracts' text
    // rule) is held, and so is a look-alike link host.
    const innocent = await claimTimed({
      display_name: 'Essex Skill School',
      message: 'Latest Android builds',
      link: 'https://scunthorpe.example',
    });
    expect(innocent.response.json().warning).toBeUndefined();
    published.push(innocent.response.json().plot.id);
    const disguised = await claimTimed({ display_name: 'Night Owl', message: 'hot s\u0435\u00ADx tonight' });
    expect(disguised.response.json().warning).toBe(UNDER_REVIEW_WARNING);
    expect((await claimedEvent(disguised.response.json().plot.id)).data).toMatchObject({ visible: false, screenedWords: ['sex'] });
    held.push(disguised.response.json().plot.id);
    const lookalikeHost = await claimTimed({ display_name: 'Night Owl', message: 'hello', link: 'https://\u0440\u043Ern.example/' });
    expect(lookalikeHost.response.json().warning).toBe(UNDER_REVIEW_WARNING);
    held.push(lookalikeHost.response.json().plot.id);
  });

  it('moderation not answering in time: the claim waits SCREEN_QUERY_TIMEOUT_MS at most, then screens locally', async () => {
    // A "moderation" that takes the request for its word list and never answers (hung, overloaded). With no list
    // answered, plots keeps none and asks again at every claim.
    const nc: NatsConnection = await connect(world.stream.connectOptions());
    const silent = nc.subscribe(`${world.stream.subjectPrefix}query.moderation.screen-words`, { queue: 'moderation' });
    let asked = 0;
    (async () => {
      for await (const _message of silent) asked += 1;
    })().catch(() => undefined);
    try {
      const dirty = await claimTimed({ display_name: 'Damn Fine Coffee', message: 'Espresso', link: 'https://coffee.example' });
      expect(dirty.response.statusCode).toBe(201);
      expect(dirty.ms).toBeGreaterThanOrEqual(SCREEN_TIMEOUT_MS - 50);
      expect(dirty.response.json().warning).toBe(UNDER_REVIEW_WARNING);
      held.push(dirty.response.json().plot.id);
      // The link's host is screened by the floor list too (its labels are words: 'drugstore' alone would pass).
      const byHost = await claimTimed({ display_name: 'Pharmacy', message: 'Open late', link: 'https://cheap-drugs.example/open' });
      expect(byHost.response.json().warning).toBe(UNDER_REVIEW_WARNING);
      held.push(byHost.response.json().plot.id);
      const clean = await claimTimed({ display_name: 'Quiet Library', message: 'Books' });
      expect(clean.response.statusCode).toBe(201);
      expect(clean.response.json().warning).toBeUndefined();
      published.push(clean.response.json().plot.id);
      expect(asked).toBe(3);
    } finally {
      silent.unsubscribe();
      await nc.close();
    }
  });

  it('when moderation comes back, the plots held and flagged meanwhile are in its queue (nothing lost), and approving one publishes it', async () => {
    await world.restart('moderation');
    const queue = await eventually(async () => {
      const pending = await flaggedPlots(world);
      return held.every((id) => pending.some((p) => p.id === id)) ? pending : null;
    }, 20_000);
    // Clean claims made during the outage never enter the queue; the one flagged meanwhile does.
    expect(queue.filter((p) => published.includes(p.id))).toEqual([
      expect.objectContaining({ id: published[0], source: 'visitor', flag_count: 1, reasons: ['Copied my map'] }),
    ]);
    const [killSwitch] = held;
    assert(killSwitch, 'the outage held a plot');
    expect(queue.find((p) => p.id === killSwitch)).toMatchObject({ display_name: 'Kill Switch Co', reasons: ['kill'], source: 'screen' });

    expect((await decide(world, 'approve', killSwitch)).statusCode).toBe(200);
    await eventually(async () => (await ids()).includes(killSwitch), 15_000);

    // And with moderation back, claims are screened by it again.
    const next = await claimTimed({ display_name: 'Test Kitchen', message: 'Recipes' });
    expect(next.response.json().warning).toBe(UNDER_REVIEW_WARNING);
    expect((await world.plots.inject('/metrics')).body).toMatch(
      /plots_claims_screened_total\{screened_by="moderation",outcome="held",service="plots"\} 1/,
    );
  });
});
