/**
 * What a buyer can and cannot change after the sale, in one place: every page that states the policy (home, the claim
 * popup, the confirm step, FAQ, Terms, About, Privacy, /claim) and any e-mail that repeats it reads these strings, so the
 * words cannot drift from what the owner page does (docs/architecture.md, "owners after the sale").
 */
export const SALES_FINAL = 'All sales are final.';

/** The policy itself: what stays as bought, what the owner may change, and that changes are screened. */
export const PLOT_CHANGE_POLICY =
  'Name, tier and position are final. The message, link and avatar can be changed later by the owner through their private link, and changes are screened like a claim.';

/** Where the buyer checks what cannot change: the claim popup, before paying (after paying the claim is made at once). */
export const CHECK_BEFORE_PAYING = 'Check your name, tier and position before you pay.';
