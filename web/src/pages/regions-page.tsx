import type { RegionSummary } from '@pixel-atlas/contracts/directory';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { regionsQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { JsonLd } from '../components/json-ld.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { absoluteUrl, usePageSettings } from '../lib/page-settings.ts';
import { plotCountText, regionPagePath } from '../lib/region-directory.ts';
import { SITE_NAME } from '../lib/site.ts';

const TITLE = 'Regions of the Atlas';
const DESCRIPTION = `Every region of the ${SITE_NAME} map and the creators' plots standing in each one.`;

/** /regions: the directory's first page, every region with its plot count, each linking its own page. */
export function RegionsPage() {
  usePageMeta(`${TITLE} - ${SITE_NAME}`, DESCRIPTION);
  const query = useQuery(regionsQuery());
  const regions = query.data?.regions;
  const total = regions?.reduce((sum, region) => sum + region.plotCount, 0);

  return (
    <PageContainer className="max-w-6xl min-h-dvh">
      <Link to="/" className={buttonClassName('ghost', 'sm')}>
        <span aria-hidden="true">←</span> Back to Atlas
      </Link>
      <header className="mt-4 mb-8">
        <h1 className="text-base text-gold md:text-2xl">{TITLE}</h1>
        <p className="mt-3 max-w-2xl text-ink-muted">
          Thirteen lands, each home to its own kind of creator. Pick a region to see every plot standing in it
          {total === undefined ? '.' : `: ${plotCountText(total)} in all.`}
        </p>
      </header>
      {regions ? (
        <>
          <RegionsStructuredData regions={regions} />
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {regions.map((region) => (
              <li key={region.slug}>
                <RegionCard region={region} />
              </li>
            ))}
          </ul>
        </>
      ) : query.isError ? (
        <div role="alert" className="pixel-panel p-6">
          <p className="text-ink">The regions could not be loaded right now.</p>
          <button type="button" className={buttonClassName('secondary', 'sm', 'mt-4')} onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status" className="text-ink-muted">
          Loading regions…
        </p>
      )}
    </PageContainer>
  );
}

function RegionCard({ region }: { region: RegionSummary }) {
  return (
    <article className="pixel-panel flex h-full flex-col gap-3 p-5">
      <h2 className="font-sans text-lg font-semibold text-ink">
        <Link to={regionPagePath(region.slug)} className="underline-offset-4 hover:text-gold hover:underline">
          {region.name}
        </Link>
      </h2>
      <p className="text-sm text-ink-muted">{region.plotCount === 0 ? 'No plots yet' : `${plotCountText(region.plotCount)} standing`}</p>
    </article>
  );
}

function RegionsStructuredData({ regions }: { regions: RegionSummary[] }) {
  const { origin } = usePageSettings();
  return (
    <JsonLd
      data={{
        '@type': 'CollectionPage',
        name: TITLE,
        description: DESCRIPTION,
        url: absoluteUrl(origin, '/regions'),
        isPartOf: { '@type': 'WebSite', name: SITE_NAME, url: absoluteUrl(origin, '/') },
        mainEntity: {
          '@type': 'ItemList',
          numberOfItems: regions.length,
          itemListElement: regions.map((region, index) => ({
            '@type': 'ListItem',
            position: index + 1,
            name: region.name,
            url: absoluteUrl(origin, regionPagePath(region.slug)),
          })),
        },
      }}
    />
  );
}
