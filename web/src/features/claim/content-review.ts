import { findFlaggedWords, hostForScreen } from '@pixel-atlas/contracts/content-screen';

/** The fields the screen reads: what the buyer typed (link empty when none). */
export interface ScreenedProfile {
  display_name: string;
  message: string;
  link: string;
}

/**
 * The browser's screen before payment: the server's own function (`@pixel-atlas/contracts/content-screen`, whole words
 * after normalisation) over the same fields moderation screens — name, message and the link's host — so the
 * 'Content Under Review' dialog opens for exactly what the server will hold with the spec's list (an operator's
 * extra words are known to the server only). Returns the listed words found.
 */
export function contentReviewWords(profile: ScreenedProfile): string[] {
  return findFlaggedWords([profile.display_name, profile.message, hostForScreen(linkHost(profile.link))]);
}

export function needsContentReview(profile: ScreenedProfile): boolean {
  return contentReviewWords(profile).length > 0;
}

/** Identifies the screened fields, so a buyer already asked about these exact texts is not asked again. */
export function contentReviewKey(profile: ScreenedProfile): string {
  return `${profile.display_name}\u0000${profile.message}\u0000${profile.link}`;
}

/** The host of a typed link ('' when it is not a URL yet: the form rejects it before this runs). */
function linkHost(link: string): string {
  try {
    return link.trim() ? new URL(link.trim()).hostname : '';
  } catch {
    return '';
  }
}
