import type { LinkHealth } from '@pixel-atlas/contracts/link-health';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** What the background checker last found about the owner's link, said plainly. Never shown to the public. */
export function LinkHealthNote({ health, hasLink }: { health: LinkHealth; hasLink: boolean }) {
  if (!hasLink) return <p className="text-sm text-ink-muted">Your plot has no link yet.</p>;
  const reason = health.lastError ? ` (${health.lastError})` : '';
  switch (health.status) {
    case 'ok':
      return (
        <p className="text-sm text-ink" data-testid="link-health">
          Your link was last reachable on {day(health.lastOkAt ?? health.lastCheckedAt ?? new Date().toISOString())}.
        </p>
      );
    case 'failing':
    case 'unreachable':
      return (
        <p className={`text-sm ${health.status === 'unreachable' ? 'text-danger-text' : 'text-ink'}`} data-testid="link-health">
          {health.lastOkAt ? `We could not reach your link since ${day(health.lastOkAt)}` : 'We could not reach your link yet'}
          {reason}. Visitors still see it; please check that your site is up, or change the link below.
        </p>
      );
    default:
      return (
        <p className="text-sm text-ink-muted" data-testid="link-health">
          We have not checked your link yet. We visit it regularly and will tell you here if it stops working.
        </p>
      );
  }
}
