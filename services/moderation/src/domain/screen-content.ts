import { FLAGGED_WORDS, findFlaggedWords, hostForScreen } from '@pixel-atlas/contracts/content-screen';

export interface ScreenContentOptions {
  /** The texts to screen (display name, message). */
  texts: Array<string | null | undefined>;
  /** The host of the plot's link (a whole URL is accepted too: its host is used). */
  linkHost?: string | null;
  /** The word list in force (see `buildWordList`). */
  words: readonly string[];
}

export interface ScreenResult {
  flagged: boolean;
  /** The listed words found, in list order, each once. */
  words: string[];
}

/**
 * The word list in force: the spec's list (section 5) as the floor, plus the operator's extra words
 * (`MODERATION_EXTRA_WORDS`, comma-separated), trimmed, lowercased, without blanks or repeats.
 */
export function buildWordList(extraWords: string | readonly string[] = []): string[] {
  const extra = typeof extraWords === 'string' ? extraWords.split(',') : extraWords;
  const words = [...FLAGGED_WORDS, ...extra].map((w) => w.trim().toLowerCase()).filter(Boolean);
  return [...new Set(words)];
}

/**
 * The host part of a link host or URL, lowercased, international labels decoded ('' when there is none):
 * `xn--` punycode would hide a look-alike host ('ѕех.example') from the screen. The browser uses the same function.
 */
export function normaliseHost(linkHost: string | null | undefined): string {
  return hostForScreen(linkHost);
}

/**
 * The server-side content screen: `findFlaggedWords` (whole words after normalisation, the same function the browser
 * and plots' floor screen run) over the texts and the link's host, whose labels count as words ('free-porn.example').
 * Pure: the same input always gives the same answer.
 */
export function screenContent({ texts, linkHost, words }: ScreenContentOptions): ScreenResult {
  const found = findFlaggedWords([...texts, normaliseHost(linkHost)], words);
  return { flagged: found.length > 0, words: found };
}
