import assert from 'node:assert/strict';
import type { EventEnvelope } from '@pixel-atlas/contracts/events';
import { ensureStream } from '@pixel-atlas/service-kit/nats';
import { consumerName } from '@pixel-atlas/service-kit/nats-auth';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adminHeaders,
  claimedEvent,
  flaggedEvent,
  plotSnapshot,
  publish,
  screenedClaimEvent,
  streamEvents,
} from '../testing/moderation-world.ts';

// The moderation service runs as a real process (as in production) so it can be stopped and killed
// while plots keeps publishing; JetStream holds the events, the durable consumer resumes, the inbox
// keeps every event applied exactly once.
const bed = testBedPerFile({ bus: 'plots-stand-in' });
let moderation: ServiceProcess | null = null;
beforeAll(async () => {
  await ensureStream(bed.bus);
});
afterAll(async () => {
  await moderation?.stop('SIGKILL');
});

const inboxCount = () => bed.db.count('moderation.inbox_events');

async function reviews(plotId: string) {
  return bed.db.query<{ status: string; flag_count: number; reasons: string[]; source: string }>(
    `SELECT status, flag_count, reasons, source FROM moderation.review_items WHERE plot_id = $1 ORDER BY queued_at`,
    [plotId],
  );
}

it('catches up with every event published while it was stopped, none applied twice', async () => {
  moderation = await startServiceProcess('moderation', bed.env);
  const first = plotSnapshot({ displayName: 'Test Before' });
  await publish(bed.bus, screenedClaimEvent(first, ['test']));
  await eventually(async () => (await reviews(first.plotId)).length === 1, 15_000);

  await moderation.stop();
  moderation = null;

  const published: EventEnvelope[] = [];
  const send = async (event: EventEnvelope, msgID?: string) => {
    await publish(bed.bus, event, msgID);
    published.push(event);
  };
  const screened = Array.from({ length: 10 }, (_, i) => plotSnapshot({ displayName: `Drug Store ${i}` }));
  for (const plot of screened) await send(screenedClaimEvent(plot, ['drug'], `owner${plot.x}@example.com`));
  const flaggedPlots = Array.from({ length: 3 }, (_, i) => plotSnapshot({ displayName: `Flagged ${i}` }));
  for (const plot of flaggedPlots)
    for (let count = 1; count <= 10; count++) await send(flaggedEvent(plot, count, count % 2 ? null : 'Spam'));
  const clean = plotSnapshot({ displayName: 'Clean' });
  await send(claimedEvent(clean));
  // A relay that crashed after publishing re-publishes: same event id, another message id.
  for (const index of [0, 12]) {
    const event = published[index];
    assert(event, `event ${index} was published`);
    await publish(bed.bus, event, `${event.id}-again`);
  }

  moderation = await startServiceProcess('moderation', bed.env);
  await eventually(async () => (await inboxCount()) === 1 + published.length, 30_000);
  for (const plot of screened)
    expect(await reviews(plot.plotId)).toEqual([{ status: 'pending', flag_count: 0, reasons: ['drug'], source: 'screen' }]);
  for (const plot of flaggedPlots) {
    expect(await reviews(plot.plotId)).toEqual([
      { status: 'pending', flag_count: 10, reasons: ['Flagged by a visitor', 'Spam'], source: 'visitor' },
    ]);
  }
  expect(await reviews(clean.plotId)).toEqual([]);
  expect(await bed.db.count('moderation.plot_contacts')).toBe(10);

  // The restarted process serves admins too: a decision goes out as an event.
  const [toApprove] = screened;
  assert(toApprove);
  const response = await fetch(`${moderation.url}/api/admin/approve-plot`, {
    method: 'POST',
    headers: { ...adminHeaders('night-shift'), 'content-type': 'application/json' },
    body: JSON.stringify({ plotId: toApprove.plotId }),
  });
  expect(response.status).toBe(200);
  const approved = await eventually(async () =>
    (await streamEvents(bed.bus, 'moderation.plot.approved')).find((e) => e.data.plotId === toApprove.plotId),
  );
  expect(approved.data.decidedBy).toBe('night-shift');
});

it('loses nothing and doubles nothing when killed mid-stream', async () => {
  const plot = plotSnapshot({ displayName: 'Hot Topic' });
  const before = await inboxCount();
  const flags = Array.from({ length: 40 }, (_, i) => flaggedEvent(plot, i + 1, `reason ${i % 4}`));
  await Promise.all(flags.map((f) => publish(bed.bus, f)));
  // Killed while it holds some: delivered to it and not yet acknowledged (or, should it be quicker than the look,
  // once it applied them all).
  const durable = consumerName('moderation', 'plots.plot.flagged');
  await eventually(
    async () => (await bed.bus.jsm.consumers.info(bed.stream.stream, durable)).num_ack_pending > 0 || (await inboxCount()) === before + 40,
    10_000,
    5,
  );
  await moderation!.stop('SIGKILL');
  moderation = await startServiceProcess('moderation', bed.env);
  // Events the killed process had received but not acknowledged come back after the consumer's ack wait (30 s).
  await eventually(async () => (await inboxCount()) === before + 40, 50_000, 250);
  expect(await reviews(plot.plotId)).toEqual([
    { status: 'pending', flag_count: 40, reasons: ['reason 0', 'reason 1', 'reason 2', 'reason 3'], source: 'visitor' },
  ]);
  await moderation.stop();
  moderation = null;
}, 70_000);
