import { DIRECTORY_PAGE_SIZE, type RegionPage as RegionPageData } from '@pixel-atlas/contracts/directory';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { errorStatus } from '../api/errors.ts';
import { regionPageQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { JsonLd } from '../components/json-ld.tsx';
import { PlotAvatar } from '../features/plots/plot-avatar.tsx';
import { TierBadge } from '../features/plots/tier-badge.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { absoluteUrl, usePageSettings } from '../lib/page-settings.ts';
import { plotCountText, regionPagePath } from '../lib/region-directory.ts';
import { regionPageNumber } from '../lib/server-rendered-pages.ts';
import { SITE_NAME } from '../lib/site.ts';
import { CLAIM_SECTION_ID } from '../lib/tier-guidance.ts';
import { NotFoundPage } from './not-found-page.tsx';

/** /regions/:slug?page=N: one page of the plots standing in a region, and links to every other page of it. */
export function RegionPage() {
  const { slug = '' } = useParams();
  const page = regionPageNumber(useLocation().search);
  if (page === null) return <NotFoundPage />;
  return <RegionPageOf slug={slug} page={page} />;
}

function RegionPageOf({ slug, page }: { slug: string; page: number }) {
  const query = useQuery(regionPageQuery(slug, page));
  if (query.isPending) return <RegionLoading />;
  if (query.isError) {
    const status = errorStatus(query.error);
    // An unknown region, or a page past its last: the address names nothing.
    if (status === 404 || status === 400) return <NotFoundPage />;
    return <RegionLoadFailed onRetry={() => void query.refetch()} />;
  }
  return <RegionPlots data={query.data} />;
}

function RegionPlots({ data }: { data: RegionPageData }) {
  const { region, page, pageCount, plots } = data;
  const pageNote = pageCount > 1 ? ` (page ${page} of ${pageCount})` : '';
  const description =
    region.plotCount === 0
      ? `No plots stand in ${region.name} on ${SITE_NAME} yet.`
      : `The ${plotCountText(region.plotCount)} standing in ${region.name} on ${SITE_NAME}${pageNote}.`;
  usePageMeta(`${region.name}${pageCount > 1 ? `, Page ${page}` : ''} - Regions of the Atlas - ${SITE_NAME}`, description);

  return (
    <PageContainer className="max-w-6xl min-h-dvh">
      <Link to="/regions" className={buttonClassName('ghost', 'sm')}>
        <span aria-hidden="true">←</span> All Regions
      </Link>
      <header className="mt-4 mb-8">
        <h1 className="text-base wrap-anywhere text-gold md:text-2xl">{region.name}</h1>
        <p className="mt-3 text-ink-muted">
          {region.plotCount === 0 ? 'No plots stand here yet.' : `${plotCountText(region.plotCount)} standing in this region`}
          {pageCount > 1 ? ` · page ${page} of ${pageCount}` : ''}
        </p>
      </header>
      <RegionStructuredData data={data} />
      {plots.length === 0 ? (
        <section className="pixel-panel p-8 text-center">
          <p className="text-ink">Nobody has claimed a plot in {region.name} yet.</p>
          <Link to={`/#${CLAIM_SECTION_ID}`} className={buttonClassName('primary', 'md', 'mt-6')}>
            Claim Your Tile
          </Link>
        </section>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {plots.map((plot) => (
            <li key={plot.id}>
              <RegionPlotCard plot={plot} />
            </li>
          ))}
        </ul>
      )}
      <Pagination slug={region.slug} page={page} pageCount={pageCount} />
    </PageContainer>
  );
}

function RegionPlotCard({ plot }: { plot: Plot }) {
  return (
    <article className="pixel-panel flex h-full flex-col p-4">
      <div className="flex items-center gap-3">
        <PlotAvatar src={plot.avatar_url} alt="" className="size-14 shrink-0" />
        <div className="grid min-w-0 gap-1">
          <h2 className="font-sans text-lg leading-snug font-semibold wrap-anywhere text-ink">
            <Link to={`/plot/${encodeURIComponent(plot.id)}`} className="underline-offset-4 hover:text-gold hover:underline">
              {plot.display_name}
            </Link>
          </h2>
          <p className="text-xs text-ink-muted">
            Position ({plot.x}, {plot.y})
          </p>
        </div>
      </div>
      {plot.message ? <p className="mt-3 line-clamp-3 wrap-anywhere text-sm text-ink-muted">{plot.message}</p> : null}
      <div className="mt-auto pt-4">
        <TierBadge tier={plot.tier} />
      </div>
    </article>
  );
}

/**
 * Every page of the region as a plain link (a crawler on page 1 reaches each page in one step), with Previous and
 * Next around them.
 */
function Pagination({ slug, page, pageCount }: { slug: string; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1);
  const step = 'inline-flex min-h-11 min-w-11 items-center justify-center border-2 px-2 font-pixel text-[0.65rem] shadow-pixel-sm';
  const other = `${step} border-border bg-panel-raised text-ink hover:text-gold`;
  return (
    <nav aria-label="Pages of this region" className="mt-10 grid gap-4">
      <div className="flex flex-wrap justify-between gap-3">
        {page > 1 ? (
          <Link to={regionPagePath(slug, page - 1)} rel="prev" className={buttonClassName('secondary', 'sm')}>
            <span aria-hidden="true">←</span> Previous
          </Link>
        ) : (
          <span />
        )}
        {page < pageCount ? (
          <Link to={regionPagePath(slug, page + 1)} rel="next" className={buttonClassName('secondary', 'sm')}>
            Next <span aria-hidden="true">→</span>
          </Link>
        ) : null}
      </div>
      <ul className="flex flex-wrap gap-2">
        {pages.map((number) => (
          <li key={number}>
            <Link
              to={regionPagePath(slug, number)}
              aria-label={`Page ${number}`}
              aria-current={number === page ? 'page' : undefined}
              className={number === page ? `${step} border-black bg-gold text-ink-dark` : other}
            >
              {number}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function RegionStructuredData({ data }: { data: RegionPageData }) {
  const { origin } = usePageSettings();
  const { region, page, plots } = data;
  return (
    <JsonLd
      data={{
        '@type': 'CollectionPage',
        name: region.name,
        url: absoluteUrl(origin, regionPagePath(region.slug, page)),
        isPartOf: { '@type': 'CollectionPage', name: 'Regions of the Atlas', url: absoluteUrl(origin, '/regions') },
        ...(region.lastModified ? { dateModified: region.lastModified } : {}),
        mainEntity: {
          '@type': 'ItemList',
          numberOfItems: region.plotCount,
          itemListElement: plots.map((plot, index) => ({
            '@type': 'ListItem',
            position: (page - 1) * DIRECTORY_PAGE_SIZE + index + 1,
            name: plot.display_name,
            url: absoluteUrl(origin, `/plot/${encodeURIComponent(plot.id)}`),
          })),
        },
      }}
    />
  );
}

/** The page's frame while its plots load: the heading's place, then the list's. */
function RegionLoading() {
  usePageMeta(`Regions of the Atlas - ${SITE_NAME}`);
  return (
    <PageContainer className="max-w-6xl min-h-dvh">
      <div aria-hidden="true" className="min-h-11" />
      <p role="status" className="mt-4 text-ink-muted">
        Loading plots…
      </p>
    </PageContainer>
  );
}

function RegionLoadFailed({ onRetry }: { onRetry: () => void }) {
  usePageMeta(`Regions of the Atlas - ${SITE_NAME}`);
  return (
    <PageContainer className="max-w-xl min-h-dvh">
      <section role="alert" className="pixel-panel p-6 text-center">
        <p className="text-ink">This region could not be loaded right now.</p>
        <div className="mt-6 flex justify-center gap-3">
          <button type="button" className={buttonClassName('primary', 'sm')} onClick={onRetry}>
            Try again
          </button>
          <Link to="/regions" className={buttonClassName('secondary', 'sm')}>
            All Regions
          </Link>
        </div>
      </section>
    </PageContainer>
  );
}
