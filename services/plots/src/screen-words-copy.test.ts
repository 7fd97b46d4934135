import { connect } from '@nats-io/transport-node';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { buyAndPay, claim, claimBody, streamEvents } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { UNDER_REVIEW_WARNING } from './domain/screen-claim-content.ts';

const world = worldPerFile({ moderationEnv: { MODERATION_EXTRA_WORDS: 'casino' } });
const nextSpot = spotSupply(world, 3, 60);

async function claimAs(displayName: string) {
  const spot = nextSpot();
  const sessionId = await buyAndPay(world, { tier: 'basic', ...spot });
  const response = await claim(
    world,
    await claimBody(sessionId, 'basic', spot.x, spot.y, { display_name: displayName, message: 'Open late' }),
  );
  expect(response.statusCode).toBe(201);
  const event = await eventually(async () =>
    (await streamEvents(world, 'plots.plot.claimed')).find((e) => e.data.plotId === response.json().plot.id),
  );
  return { warning: response.json().warning as string | undefined, screenedWords: event.data.screenedWords };
}

describe("plots' copy of moderation's word list (claims screened without a round trip)", () => {
  it("screens with moderation's whole list, the operator's words included, and keeps screening with it while moderation is away", async () => {
    await eventually(async () => expect((await streamEvents(world, 'moderation.screen.configured')).length).toBeGreaterThan(0));
    expect(await claimAs('Lucky Casino')).toEqual({ warning: UNDER_REVIEW_WARNING, screenedWords: ['casino'] });
    expect(await claimAs('Quiet Library')).toEqual({ warning: undefined, screenedWords: [] });

    await world.stop('moderation');
    try {
      // The floor list alone would publish this one: the copy still has the operator's word.
      expect(await claimAs('Casino Royale')).toEqual({ warning: UNDER_REVIEW_WARNING, screenedWords: ['casino'] });
      expect((await world.plots.inject('/metrics')).body).toMatch(
        /plots_claims_screened_total\{screened_by="moderation",outcome="held",service="plots"\} 2/,
      );
    } finally {
      await world.restart('moderation');
    }
  });

  it('a moderation replica that starts with another list is in force as soon as its event is heard', async () => {
    const before = world.plots.screenWords.copy.invalidations;
    await world.stop('moderation');
    // A replica with another list, answering in moderation's queue group as the real one would.
    const nc = await connect(world.stream.connectOptions());
    const subject = (name: string) => `${world.stream.subjectPrefix}${name}`;
    let asked = 0;
    const replica = nc.subscribe(subject('query.moderation.screen-words'), { queue: 'moderation' });
    (async () => {
      for await (const message of replica) {
        asked += 1;
        message.respond(JSON.stringify({ ok: true, data: { words: ['casino', 'poker'] } }));
      }
    })().catch(() => undefined);
    try {
      nc.publish(subject('moderation.screen.configured'), JSON.stringify({ wordCount: 2 }));
      await nc.flush();
      await eventually(async () => expect(world.plots.screenWords.copy.invalidations).toBeGreaterThan(before));
      expect(await claimAs('Poker Night')).toEqual({ warning: UNDER_REVIEW_WARNING, screenedWords: ['poker'] });
      expect(await claimAs('Poker Club')).toEqual({ warning: UNDER_REVIEW_WARNING, screenedWords: ['poker'] });
      // Asked once for the two claims: the list is kept until the next change.
      expect(asked).toBe(1);
    } finally {
      replica.unsubscribe();
      await nc.close();
      await world.restart('moderation');
    }
  });
});
