export interface ScreenClaimContentInput {
  displayName: string;
  message: string;
  link: string | null;
}

export interface ScreeningResult {
  /** false: created but hidden until an admin approves it (ARCHITECTURE.md section 7). */
  visible: boolean;
  screenedWords: string[];
  /** Shown to the buyer as 'Plot Created - Under Review'. */
  warning?: string;
}

/**
 * SEAM FOR ISSUE 5 (moderation): the server-side content screen belongs here. It will ask the moderation
 * service (`query(bus, screenContentQuery, { texts: [displayName, message], linkHost })`) and, when flagged,
 * return `{ visible: false, screenedWords, warning }`. Until that service exists every claim is visible:
 * nothing here calls it, so claims do not depend on a service that is not built yet.
 */
export async function screenClaimContent(_input: ScreenClaimContentInput): Promise<ScreeningResult> {
  return { visible: true, screenedWords: [] };
}

/** What a buyer whose plot waits for review is told (spec section 8: 'Plot Created - Under Review'). */
export const UNDER_REVIEW_WARNING =
  'Your plot has been created and your payment processed. Our team reviews flagged content within 24 hours; your plot will be visible once approved.';
