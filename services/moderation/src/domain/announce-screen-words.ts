import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type PrismaClient } from '../db.ts';

/**
 * Says that this replica screens with `words` (`moderation.screen.configured`), through the outbox like every event:
 * services that keep a copy of the list (plots, which screens claims itself) drop theirs and ask again, so a list
 * changed by a restart with new `MODERATION_EXTRA_WORDS` is in force everywhere once the event is relayed.
 */
export async function announceScreenWords({ db, words }: { db: PrismaClient; words: readonly string[] }): Promise<void> {
  await db.$transaction(async (tx) => {
    await enqueueEvent({ tx, schema: SCHEMA, type: 'moderation.screen.configured', data: { wordCount: words.length } });
  });
}
