import { sessionClaimResponseSchema } from '@pixel-atlas/contracts/plots';
import { buyAndClaim, buyAndPay, publishEvent, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';

const world = worldPerFile();
const nextSpot = spotSupply(world, 4, 60);

const claimState = async (sessionId: string) => {
  const response = await world.plots.inject({ url: `/api/claim-plot/${encodeURIComponent(sessionId)}`, headers: viaGateway() });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return sessionClaimResponseSchema.parse(response.json());
};

describe('GET /api/claim-plot/:sessionId', () => {
  it('names the plot a session claimed from the moment the claim commits; nothing for a paid, unused or unknown session', async () => {
    const paid = await buyAndPay(world, { tier: 'basic', ...nextSpot() });
    expect(await claimState(paid)).toEqual({ sessionId: paid, claimed: false, plotId: null, display_name: null });
    expect(await claimState('cs_test_nobody')).toEqual({ sessionId: 'cs_test_nobody', claimed: false, plotId: null, display_name: null });

    const { sessionId, response } = await buyAndClaim(world, { tier: 'basic', ...nextSpot() }, { display_name: 'Session Sam' });
    expect(response.statusCode).toBe(201);
    const plotId: string = response.json().plot.id;
    // No waiting for any event: the answer comes from the row the claim wrote.
    expect(await claimState(sessionId)).toEqual({ sessionId, claimed: true, plotId, display_name: 'Session Sam' });

    // Removed by moderation: the session stays used, but there is no plot to point at.
    await publishEvent(world, 'moderation.plot.rejected', { plotId, decidedBy: 'admin', decidedAt: new Date().toISOString() });
    await eventually(async () => ((await claimState(sessionId)).plotId === null ? true : null));
    expect(await claimState(sessionId)).toEqual({ sessionId, claimed: true, plotId: null, display_name: null });
  });
});
