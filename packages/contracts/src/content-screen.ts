/**
 * The spec's word list (section 5). The web runs it before submitting a claim; the moderation
 * service uses it as the floor of its server-side screen.
 */
export const FLAGGED_WORDS = ['test', 'fuck', 'shit', 'damn', 'hate', 'kill', 'sex', 'porn', 'drug'] as const;

/** Lowercased substring match over the joined texts; returns the words found. */
export function findFlaggedWords(texts: Array<string | null | undefined>, words: readonly string[] = FLAGGED_WORDS): string[] {
  const haystack = texts.filter(Boolean).join(' ').toLowerCase();
  return words.filter((w) => haystack.includes(w.toLowerCase()));
}
