import { findFlaggedWords, hostForScreen } from '@pixel-atlas/contracts/content-screen';
import { screenContentQuery } from '@pixel-atlas/contracts/queries';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';

/** This replica's copy of moderation's word list (`ScreenWordsCopy`): screens without asking moderation each time. */
export interface ScreenWordsSource {
  words(): Promise<readonly string[]>;
}

export interface ScreenClaimContentInput {
  bus: EventBus;
  displayName: string;
  message: string;
  link: string | null;
  /** How long the claim waits for moderation before screening locally. */
  timeoutMs: number;
  log: FastifyBaseLogger;
  /** This replica's copy of moderation's word list; without it moderation is asked per claim. */
  words?: ScreenWordsSource;
}

/** Who screened the claim: the moderation service, or the local floor list because moderation did not answer. */
export type ScreenedBy = 'moderation' | 'floor';

export interface ScreeningResult {
  /** false: created but hidden until an admin approves it (ARCHITECTURE.md section 7). */
  visible: boolean;
  screenedWords: string[];
  /** Shown to the buyer as 'Plot Created - Under Review'. */
  warning?: string;
  screenedBy: ScreenedBy;
}

/** What a buyer whose plot waits for review is told (spec section 8: 'Plot Created - Under Review'). */
export const UNDER_REVIEW_WARNING =
  'Your plot has been created and your payment processed. Our team reviews flagged content within 24 hours; your plot will be visible once approved.';

/**
 * The host of the plot's link, the part of it the screen looks at (null without a link). `xn--` labels are decoded:
 * the screen folds look-alike letters, which punycode would hide ('ѕех.example' in Cyrillic).
 */
export function linkHostOf(link: string | null): string | null {
  if (!link) return null;
  try {
    return hostForScreen(new URL(link).href) || null;
  } catch {
    return null;
  }
}

function outcome(flagged: boolean, words: string[], screenedBy: ScreenedBy): ScreeningResult {
  return flagged
    ? { visible: false, screenedWords: words, warning: UNDER_REVIEW_WARNING, screenedBy }
    : { visible: true, screenedWords: [], screenedBy };
}

/**
 * The server-side content screen, run BEFORE the claim's transaction with moderation's list (the spec's words plus the
 * operator's extra words, over name, message and link host): from this replica's copy of it when there is one
 * (`ScreenWordsCopy`, the same `findFlaggedWords` moderation runs), else by asking moderation (`screenContentQuery`).
 * A hit: the plot is still created (the buyer paid) but hidden until an admin approves it.
 *
 * Moderation down or too slow must neither lose the sale nor publish unscreened content: the claim is then
 * screened here with the spec's floor list (`findFlaggedWords`: the same function and list moderation starts from,
 * and the browser runs before payment — whole words after normalisation) and held hidden only if that hits. The
 * event carries the words, so moderation queues the plot when it is back.
 */
export async function screenClaimContent(input: ScreenClaimContentInput): Promise<ScreeningResult> {
  const linkHost = linkHostOf(input.link);
  try {
    if (input.words) {
      const words = findFlaggedWords([input.displayName, input.message, hostForScreen(linkHost)], await input.words.words());
      return outcome(words.length > 0, words, 'moderation');
    }
    const answer = await query(
      input.bus,
      screenContentQuery,
      { texts: [input.displayName, input.message], linkHost },
      { timeoutMs: input.timeoutMs },
    );
    return outcome(answer.flagged, answer.words, 'moderation');
  } catch (error) {
    const words = findFlaggedWords([input.displayName, input.message, linkHost]);
    input.log.warn(
      { err: error, floorWords: words },
      words.length
        ? 'moderation did not screen the claim: the local floor screen caught it, the plot is held for review'
        : 'moderation did not screen the claim: the local floor screen passed it, the plot is published',
    );
    return outcome(words.length > 0, words, 'floor');
  }
}
