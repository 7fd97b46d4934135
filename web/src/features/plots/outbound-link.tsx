import type { ReactNode } from 'react';
import { usePageSettings } from '../../lib/page-settings.ts';
import { sendStatBeacon } from './stat-beacon.ts';

/**
 * rel of every outbound plot link: a new tab without opener or referrer (spec section 2). The spec
 * sells a do-follow link, so nothing like nofollow/sponsored is added here; ARCHITECTURE.md makes
 * that an operator setting (the gateway's OUTBOUND_LINK_REL): a page the gateway rendered carries the operator's rel
 * in its page settings (src/lib/page-settings.ts) and keeps it; otherwise this default applies.
 */
export const OUTBOUND_LINK_REL = 'noopener noreferrer';

/** Only http(s) links are ever rendered as links (the server refuses others; this is belt and braces). */
export function safeHttpLink(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

interface OutboundLinkProps {
  href: string;
  className?: string;
  children: ReactNode;
  label?: string;
  /** The plot whose link this is: a click (or middle click) is counted for its owner with a beacon. */
  countFor?: string;
}

/**
 * The buyer's own URL in the href, never a redirect through us (it keeps its value for search engines); the click is
 * counted beside it with a beacon, which neither delays nor changes the navigation.
 */
export function OutboundLink({ href, className, children, label, countFor }: OutboundLinkProps) {
  const rel = usePageSettings().outboundLinkRel ?? OUTBOUND_LINK_REL;
  const count = countFor ? () => sendStatBeacon(countFor, 'click') : undefined;
  return (
    <a
      href={href}
      target="_blank"
      rel={rel}
      className={className}
      aria-label={label}
      onClick={count}
      onAuxClick={count ? (event) => event.button === 1 && count() : undefined}
    >
      {children}
    </a>
  );
}
