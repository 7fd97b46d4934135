import { describe, expect, it } from 'vitest';
import { LiveEventLog, type LiveCursor, type LiveFeed } from './live-event-log.ts';

const claimed = (plotId: string) => ({ event: 'plots-changed' as const, data: { reason: 'claimed', plotId } });
const generated = { event: 'map-changed' as const, data: { reason: 'generated' } };

/** The ids a browser resuming from `from` is sent, one per replayed event, as the live route numbers them. */
function replayedIds(log: LiveEventLog, from: string): string[] {
  const { replay, from: start } = log.resume(from);
  const cursor: LiveCursor = { ...start };
  return replay.map((entry) => {
    cursor[entry.feed] = entry.seq;
    return log.idFor(cursor);
  });
}

describe('LiveEventLog', () => {
  it('replays what a browser missed in the stream’s order, with the same ids on replicas that heard the two feeds in another order', () => {
    // Stream: 1 claimed p1, 2 claimed p2, 3 generated, 4 claimed p3. Each feed in order; the feeds interleaved differently.
    const heard: Record<string, Array<[LiveFeed, number, ReturnType<typeof claimed> | typeof generated]>> = {
      a: [
        ['plots', 1, claimed('p1')],
        ['plots', 2, claimed('p2')],
        ['plots', 4, claimed('p3')],
        ['map', 3, generated],
      ],
      b: [
        ['map', 3, generated],
        ['plots', 1, claimed('p1')],
        ['plots', 2, claimed('p2')],
        ['plots', 4, claimed('p3')],
      ],
    };
    const ids = Object.values(heard).map((events) => {
      const log = new LiveEventLog(100);
      log.open('gen1', 1, 0);
      for (const [feed, seq, message] of events) log.append(feed, seq, message);
      return replayedIds(log, 'gen1-1-0');
    });
    expect(ids[0]).toEqual(['gen1-2-0', 'gen1-2-3', 'gen1-4-3']);
    expect(ids[1]).toEqual(ids[0]);
  });
});
