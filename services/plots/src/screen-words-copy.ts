import { screenWordsQuery } from '@pixel-atlas/contracts/queries';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { ScreenWordsSource } from './domain/screen-claim-content.ts';
import { LocalCopy } from './local-copy.ts';

/**
 * Moderation's word list as this replica keeps it: asked for once (`screenWordsQuery`) and dropped on every
 * `moderation.screen.*` event (a moderation replica started with its list) and on NATS reconnects, so a claim is
 * screened here, with the same function and list moderation uses, without a round trip.
 */
export class ScreenWordsCopy implements ScreenWordsSource {
  readonly copy: LocalCopy<readonly string[]>;

  constructor(bus: EventBus, timeoutMs: number) {
    this.copy = new LocalCopy(async () => (await query(bus, screenWordsQuery, {}, { timeoutMs })).words);
  }

  words(): Promise<readonly string[]> {
    return this.copy.get();
  }
}
