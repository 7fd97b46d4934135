import { useQuery } from '@tanstack/react-query';
import { failingLinksQuery } from '../../api/admin-queries.ts';
import { LoadingOrFailed } from '../../components/loading-or-failed.tsx';
import { OutboundLink, safeHttpLink } from '../plots/outbound-link.tsx';

const STATUS_LABEL: Record<string, string> = { unreachable: 'Unreachable', failing: 'Failing' };

/** /admin 'Link Health': plot links the background checker found failing, unreachable ones first. */
export function LinkHealthSection() {
  const list = useQuery(failingLinksQuery());
  if (!list.isSuccess) return <LoadingOrFailed query={list} loading="Loading link health…" failed="Could not load link health." />;
  const links = list.data;
  const unreachable = links.filter((entry) => entry.status === 'unreachable').length;
  return (
    <div className="grid gap-4">
      <p className="text-sm text-ink-muted">
        <span data-testid="link-health-unreachable-count">{unreachable}</span> unreachable,{' '}
        <span data-testid="link-health-failing-count">{links.length - unreachable}</span> failing. Owners of unreachable links are told by
        e-mail; the public page keeps the link.
      </p>
      {links.length === 0 ? (
        <p className="border-2 border-dashed border-border p-6 text-center text-ink-muted">Every checked link works</p>
      ) : (
        <ul className="grid gap-3">
          {links.map((entry) => (
            <li
              key={entry.plotId}
              aria-label={`Link of ${entry.displayName}`}
              className="min-w-0 border-2 border-border bg-night p-3 wrap-anywhere"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <a href={`/plot/${entry.plotId}`} className="font-semibold text-ink underline">
                  {entry.displayName}
                </a>
                <span className={`font-pixel text-[0.65rem] ${entry.status === 'unreachable' ? 'text-danger' : 'text-gold'}`}>
                  {STATUS_LABEL[entry.status] ?? entry.status}
                </span>
              </div>
              <p className="text-sm">
                {safeHttpLink(entry.link) ? <OutboundLink href={entry.link}>{entry.link}</OutboundLink> : entry.link}
              </p>
              <p className="text-xs text-ink-muted">
                {entry.lastError ?? 'failing'} · {entry.consecutiveFailures} failed {entry.consecutiveFailures === 1 ? 'check' : 'checks'}
                {entry.failingSince ? ` since ${formatDate(entry.failingSince)}` : ''}
                {entry.lastOkAt ? ` · last OK ${formatDate(entry.lastOkAt)}` : ' · never OK'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}
