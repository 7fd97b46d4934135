import type { Plot } from '@pixel-atlas/contracts/plots';
import { zoneName } from '@pixel-atlas/contracts/zones';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { errorStatus } from '../api/errors.ts';
import { userPlotsQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { OutboundLink, safeHttpLink } from '../features/plots/outbound-link.tsx';
import { PlotAvatar } from '../features/plots/plot-avatar.tsx';
import { TierBadge } from '../features/plots/tier-badge.tsx';
import { JsonLd } from '../components/json-ld.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { absoluteUrl, usePageSettings } from '../lib/page-settings.ts';
import { SITE_NAME } from '../lib/site.ts';
import { CLAIM_SECTION_ID } from '../lib/tier-guidance.ts';

/** Spec section 2, /user/{username}: the plots whose display name matches, ignoring case. */
export function UserPage() {
  // The router hands over the path segment already decoded.
  const { username = '' } = useParams();
  usePageMeta(`${username}'s Atlas - ${SITE_NAME}`, `Plots claimed by ${username} on ${SITE_NAME}.`);
  const query = useQuery(userPlotsQuery(username));
  // An unknown name is simply a user without plots.
  const plots = query.data?.plots ?? (errorStatus(query.error) === 404 ? [] : undefined);

  return (
    <PageContainer className="max-w-6xl">
      <Link to="/" className={buttonClassName('ghost', 'sm')}>
        <span aria-hidden="true">←</span> Back to Atlas
      </Link>
      <header className="mt-4 mb-8">
        <h1 className="text-base wrap-anywhere text-gold md:text-2xl">{username}'s Atlas</h1>
        {plots ? (
          <p className="mt-3 text-ink-muted">
            {plots.length} {plots.length === 1 ? 'plot' : 'plots'} claimed
          </p>
        ) : null}
      </header>
      {plots ? <UserStructuredData username={username} plots={plots} /> : null}
      {plots ? (
        plots.length === 0 ? (
          <EmptyState username={username} />
        ) : (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {plots.map((plot) => (
              <li key={plot.id}>
                <UserPlotCard plot={plot} />
              </li>
            ))}
          </ul>
        )
      ) : query.isError ? (
        <div role="alert" className="pixel-panel p-6">
          <p className="text-ink">These plots could not be loaded right now.</p>
          <button type="button" className={buttonClassName('secondary', 'sm', 'mt-4')} onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status" className="text-ink-muted">
          Loading plots…
        </p>
      )}
    </PageContainer>
  );
}

/** schema.org: the page is a profile of a person, whose own sites are their plots' links. */
function UserStructuredData({ username, plots }: { username: string; plots: Plot[] }) {
  const { origin } = usePageSettings();
  const url = absoluteUrl(origin, `/user/${encodeURIComponent(username)}`);
  const sites = [...new Set(plots.map((plot) => safeHttpLink(plot.link)).filter((link): link is string => link !== null))];
  return (
    <JsonLd
      data={{
        '@type': 'ProfilePage',
        name: `${username}'s Atlas`,
        url,
        mainEntity: {
          '@type': 'Person',
          name: username,
          url,
          ...(sites.length > 0 ? { sameAs: sites } : {}),
        },
        hasPart: plots.map((plot) => ({
          '@type': 'CreativeWork',
          name: `${plot.display_name}'s Plot`,
          url: absoluteUrl(origin, `/plot/${encodeURIComponent(plot.id)}`),
        })),
      }}
    />
  );
}

/** 'Mar 4, 2026' in UTC: the same text on the server and in any browser (a page hydrates what the server wrote). */
const claimedDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function EmptyState({ username }: { username: string }) {
  return (
    <section className="pixel-panel p-8 text-center">
      <p className="text-ink">{username} hasn't claimed any plots yet.</p>
      <Link to={`/#${CLAIM_SECTION_ID}`} className={buttonClassName('primary', 'md', 'mt-6')}>
        Claim Your First Plot
      </Link>
    </section>
  );
}

function UserPlotCard({ plot }: { plot: Plot }) {
  const link = safeHttpLink(plot.link);
  const created = new Date(plot.created_at);
  return (
    <article aria-label={`${plot.display_name} at (${plot.x}, ${plot.y})`} className="pixel-panel flex h-full flex-col p-5">
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-ink-muted">
        <span>
          Position ({plot.x}, {plot.y})
        </span>
        <TierBadge tier={plot.tier} />
      </div>
      <p className="mt-2 text-xs text-ink-muted">{zoneName(plot.zone)}</p>
      <div className="mt-4 flex items-center gap-3">
        <PlotAvatar src={plot.avatar_url} alt={`${plot.display_name}'s avatar`} className="size-14 shrink-0" />
        <h2 className="min-w-0 font-sans text-lg font-semibold wrap-anywhere text-ink">{plot.display_name}</h2>
      </div>
      {plot.message ? <p className="mt-3 line-clamp-3 wrap-anywhere text-sm text-ink-muted">{plot.message}</p> : null}
      <p className="mt-3 text-xs text-ink-muted">
        Claimed <time dateTime={plot.created_at}>{Number.isNaN(created.getTime()) ? plot.created_at : claimedDate.format(created)}</time>
      </p>
      <div className="mt-auto flex flex-wrap gap-3 pt-5">
        <Link to={`/plot/${encodeURIComponent(plot.id)}`} className={buttonClassName('primary', 'sm')}>
          View Plot
        </Link>
        {link ? (
          <OutboundLink
            href={link}
            className={buttonClassName('secondary', 'sm')}
            label={`Visit ${plot.display_name}'s website`}
            countFor={plot.id}
          >
            Visit
          </OutboundLink>
        ) : null}
      </div>
    </article>
  );
}
