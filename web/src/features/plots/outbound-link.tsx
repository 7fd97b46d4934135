import type { ReactNode } from 'react';

/**
 * rel of every outbound plot link: a new tab without opener or referrer (spec section 2). The spec
 * sells a do-follow link, so nothing like nofollow/sponsored is added here; ARCHITECTURE.md makes
 * that an operator setting, and the plot API does not carry one, so the default applies.
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

export function OutboundLink({ href, className, children, label }: { href: string; className?: string; children: ReactNode; label?: string }) {
  return (
    <a href={href} target="_blank" rel={OUTBOUND_LINK_REL} className={className} aria-label={label}>
      {children}
    </a>
  );
}
