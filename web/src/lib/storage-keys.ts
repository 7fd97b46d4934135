/** Browser storage keys named in spec section 3; the claim flow and the housekeeping share them. */
export const SELECTED_TIER_KEY = 'selectedTier';
export const TEMP_CLAIM_DATA_KEY = 'tempClaimData';
export const APP_INITIALIZED_KEY = 'app_initialized';
/** Session storage: the claim the buyer filled in before paying (spec section 3, Pending claim). */
export const PENDING_CLAIM_KEY = 'pendingClaim';
/** Session storage: the touch guide was dismissed (its × or a first gesture on the map); it stays away for the session. */
export const TOUCH_GUIDE_DISMISSED_KEY = 'touchGuideDismissed';
