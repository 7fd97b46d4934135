import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { plotNeighboursQuery } from '../../api/queries.ts';
import { PlotAvatar } from './plot-avatar.tsx';
import { TierBadge } from './tier-badge.tsx';

/**
 * The plots nearest to this one on the map, each a link to its page (on the server's page too: a crawler walks from
 * plot to plot). Nothing shows while they load or when there are none, or when they could not be loaded: the section
 * is an extra below the plot, never in the way of it.
 */
export function PlotNeighbours({ plotId, className = '' }: { plotId: string; className?: string }) {
  const neighbours = useQuery(plotNeighboursQuery(plotId));
  const plots = neighbours.data?.plots ?? [];
  if (plots.length === 0) return null;
  return (
    <section aria-labelledby="neighbours-heading" className={`pixel-panel p-6 ${className}`}>
      <h2 id="neighbours-heading" className="text-sm text-gold">
        Neighbours
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {plots.map((plot) => (
          <li key={plot.id} className="flex min-w-0 items-center gap-3">
            <PlotAvatar src={plot.avatar_url} alt="" className="size-10 shrink-0" />
            <div className="grid min-w-0 gap-1">
              <Link
                to={`/plot/${encodeURIComponent(plot.id)}`}
                className="inline-flex min-h-6 items-center font-semibold wrap-anywhere text-ink underline-offset-4 hover:text-gold hover:underline"
              >
                {plot.display_name}
              </Link>
              <p className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
                <span>
                  ({plot.x}, {plot.y})
                </span>
                <TierBadge tier={plot.tier} />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
