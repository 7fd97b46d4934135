import { isTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { PENDING_CLAIM_KEY } from '../../lib/storage-keys.ts';

/** Spec section 3, Pending claim: what the popup saves before the browser leaves for the checkout. */
export interface PendingClaim {
  x: number;
  y: number;
  display_name: string;
  message: string;
  /** Empty string when none was given. */
  link: string;
  tier: Tier;
  /** The saved avatar as a data URL. */
  avatar_url: string;
  /** From the 'Content Under Review' dialog, when the buyer left an address. */
  notification_email?: string;
}

export function savePendingClaim(claim: PendingClaim): void {
  sessionStorage.setItem(PENDING_CLAIM_KEY, JSON.stringify(claim));
}

/** The saved claim, or null; anything unreadable is thrown away. */
export function readPendingClaim(): PendingClaim | null {
  const raw = sessionStorage.getItem(PENDING_CLAIM_KEY);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (isPendingClaim(value)) return value;
  } catch {
    // unreadable: dropped below
  }
  clearPendingClaim();
  return null;
}

export function clearPendingClaim(): void {
  sessionStorage.removeItem(PENDING_CLAIM_KEY);
}

function isPendingClaim(value: unknown): value is PendingClaim {
  if (typeof value !== 'object' || value === null) return false;
  const claim = value as Record<string, unknown>;
  const isText = (key: string) => typeof claim[key] === 'string';
  return (
    Number.isInteger(claim.x) &&
    Number.isInteger(claim.y) &&
    ['display_name', 'message', 'link', 'avatar_url'].every(isText) &&
    isTier(claim.tier) &&
    (claim.notification_email === undefined || isText('notification_email'))
  );
}
