import type { Plot } from '@pixel-atlas/contracts/plots';
import { normalizeTier, tierLabel, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { zoneName } from '@pixel-atlas/contracts/zones';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { errorStatus } from '../api/errors.ts';
import { plotQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import type { ClaimedPlotState } from '../features/claim/claim-celebration.tsx';
import { OwnerLinkNotice } from '../features/manage/owner-link-notice.tsx';
import { OutboundLink, safeHttpLink } from '../features/plots/outbound-link.tsx';
import { PlotAvatar } from '../features/plots/plot-avatar.tsx';
import { PlotNeighbours } from '../features/plots/plot-neighbours.tsx';
import { ShareMenu } from '../features/plots/share-menu.tsx';
import { TierBadge } from '../features/plots/tier-badge.tsx';
import { usePlotViewCount } from '../features/plots/use-plot-view-count.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { LazyMapPreview } from '../map/components/lazy-map-preview.tsx';
import { MAP_PREVIEW_BOX_CLASS } from '../map/components/map-preview-box.ts';
import { JsonLd } from '../components/json-ld.tsx';
import { absoluteUrl, usePageSettings } from '../lib/page-settings.ts';
import { plotRegion } from '../lib/region-directory.ts';
import { SITE_NAME } from '../lib/site.ts';

/**
 * Every state of the page (chunk loading, skeleton, profile, not found) fills at least the first screen, so the
 * footer never shows until the visitor scrolls: a profile taller or shorter than its skeleton would otherwise move
 * the footer in or out of view on mobile (CLS). The gateway's server-rendered body for /plot/:id uses the same
 * container and article classes (services/gateway/src/domain/render-share-page.ts), so its
 * first paint sits where the mounted page will.
 */
export const PLOT_FRAME_CLASS = 'min-h-dvh';
/** Below the profile: the skeleton and the gateway's body reserve the same box there. */
const PLOT_MAP_PREVIEW_CLASS = 'mt-4';

/** Spec section 2, /plot/{id}. */
export function PlotPage() {
  const { id = '' } = useParams();
  const plot = useQuery(plotQuery(id));
  const location = useLocation();
  const underReview = (location.state as ClaimedPlotState | null)?.claimedUnderReview === true;

  if (plot.isPending) return <PlotSkeleton />;
  if (plot.isError) {
    if (errorStatus(plot.error) === 404) return underReview ? <PlotUnderReview /> : <PlotNotFound />;
    return <PlotLoadFailed onRetry={() => void plot.refetch()} />;
  }
  return <PlotProfile plot={plot.data} />;
}

/**
 * The owner link the claim handed over in the router state (only the browser that claimed has it), until the
 * owner says it is saved: then it leaves the history entry too, so it is not shown again.
 */
function ClaimedOwnerLink() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as ClaimedPlotState | null;
  if (!state?.manageToken) return null;
  const dismiss = () => {
    void navigate(location.pathname, { replace: true, state: { ...state, manageToken: undefined } satisfies ClaimedPlotState });
  };
  return <OwnerLinkNotice token={state.manageToken} onDismiss={dismiss} className="mt-4" />;
}

function PlotProfile({ plot }: { plot: Plot }) {
  usePlotViewCount(plot.id);
  const tier = normalizeTier(plot.tier);
  const mapLabel = `Map of ${plot.display_name}'s plot at (${plot.x}, ${plot.y}) and its neighbours`;
  const description = plot.message.trim() || `A ${tierLabel(tier)} plot at coordinates (${plot.x}, ${plot.y}) on ${SITE_NAME}.`;
  usePageMeta(`${plot.display_name}'s Plot - ${SITE_NAME}`, description);
  const link = safeHttpLink(plot.link);
  const region = plotRegion(plot.region_name);

  return (
    <PageContainer className={`max-w-2xl ${PLOT_FRAME_CLASS}`}>
      <PlotStructuredData plot={plot} description={description} />
      <BackButton />
      <article aria-labelledby="plot-heading" className="pixel-panel mt-4 p-6">
        <div className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">
          <PlotAvatar src={plot.avatar_url} alt={`${plot.display_name}'s avatar`} className="size-28 shrink-0" />
          <div className="grid min-w-0 gap-2">
            <h1 id="plot-heading" className="text-base wrap-anywhere text-gold md:text-xl">
              {plot.display_name}'s Plot
            </h1>
            <p className="text-sm text-ink-muted">
              Coordinates ({plot.x}, {plot.y})
            </p>
            <p className="text-sm text-ink">
              {tierPlotLabel(tier)} in {zoneName(plot.zone)}
              <span className="text-ink-muted"> · </span>
              <Link to={region.to} className="text-sky underline">
                {region.name}
              </Link>
            </p>
            <TierBadge tier={tier} className="mx-auto w-fit sm:mx-0" />
          </div>
        </div>
        {plot.message ? <p className="mt-6 text-lg wrap-anywhere text-ink">{plot.message}</p> : null}
        <div className="mt-8 flex flex-wrap justify-center gap-3 sm:justify-start">
          {link ? (
            <OutboundLink href={link} className={buttonClassName('primary')} countFor={plot.id}>
              Visit Website
            </OutboundLink>
          ) : null}
          <ShareMenu plot={plot} size="md" />
          <Link to="/" className={buttonClassName('secondary')}>
            Explore The Atlas
          </Link>
        </div>
      </article>
      <ClaimedOwnerLink />
      <p className="mt-4 text-sm text-ink-muted">
        Own this plot?{' '}
        <Link to="/owner-link" className="text-sky underline">
          Lost your owner link?
        </Link>
      </p>
      <LazyMapPreview
        x={plot.x}
        y={plot.y}
        tier={tier}
        label={mapLabel}
        className={PLOT_MAP_PREVIEW_CLASS}
        // The gateway's share card of the plot: the same neighbourhood, drawn on the server.
        noScriptImage={{ src: `/share-card/${plot.id}.png`, alt: mapLabel }}
      />
      <PlotNeighbours plotId={plot.id} className="mt-4" />
    </PageContainer>
  );
}

/** schema.org: the plot as a creative work on the map, by its owner, whose own site is the buyer's link. */
function PlotStructuredData({ plot, description }: { plot: Plot; description: string }) {
  const { origin } = usePageSettings();
  const link = safeHttpLink(plot.link);
  const region = plotRegion(plot.region_name);
  return (
    <JsonLd
      data={{
        '@type': 'CreativeWork',
        name: `${plot.display_name}'s Plot`,
        description,
        url: absoluteUrl(origin, `/plot/${encodeURIComponent(plot.id)}`),
        // A served avatar's address (an old plot may still hold its image inline: too big to repeat here).
        ...(plot.avatar_url.startsWith('data:') ? {} : { image: absoluteUrl(origin, plot.avatar_url) }),
        dateCreated: plot.created_at,
        ...(plot.updated_at ? { dateModified: plot.updated_at } : {}),
        author: {
          '@type': 'Person',
          name: plot.display_name,
          url: absoluteUrl(origin, `/user/${encodeURIComponent(plot.display_name)}`),
          ...(link ? { sameAs: [link] } : {}),
        },
        ...(link ? { sameAs: link } : {}),
        contentLocation: { '@type': 'Place', name: region.name, url: absoluteUrl(origin, region.to) },
        isPartOf: { '@type': 'CollectionPage', name: region.name, url: absoluteUrl(origin, region.to) },
      }}
    />
  );
}

/** Back to wherever the visitor came from inside the app, else to the map. */
function BackButton() {
  const navigate = useNavigate();
  const location = useLocation();
  const canGoBack = location.key !== 'default';
  return (
    <button type="button" className={buttonClassName('ghost', 'sm')} onClick={() => void (canGoBack ? navigate(-1) : navigate('/'))}>
      <span aria-hidden="true">←</span> Back
    </button>
  );
}

function PlotNotFound() {
  return (
    <PlotNotice
      title="Plot Not Found"
      headingId="plot-missing-heading"
      text="The plot you're looking for doesn't exist or has been removed."
    />
  );
}

/** Right after a claim the server screened: the plot exists but is hidden until approved. */
function PlotUnderReview() {
  return (
    <PlotNotice
      title="Plot Under Review"
      headingId="plot-review-heading"
      text="Your plot has been created. Our team reviews it within 24 hours, and it will be visible here and on the map once approved."
    >
      <ClaimedOwnerLink />
    </PlotNotice>
  );
}

interface PlotNoticeProps {
  title: string;
  headingId: string;
  text: string;
  /** Shown under the notice. */
  children?: ReactNode;
}

/** In place of a plot that is not shown: why, and the way back to the atlas. */
function PlotNotice({ title, headingId, text, children }: PlotNoticeProps) {
  usePageMeta(`${title} - ${SITE_NAME}`);
  return (
    <PageContainer className={`max-w-xl ${PLOT_FRAME_CLASS}`}>
      <section aria-labelledby={headingId} className="pixel-panel p-6 text-center">
        <h1 id={headingId} className="text-base text-gold">
          {title}
        </h1>
        <p className="mt-4 text-ink-muted">{text}</p>
        <Link to="/" className={buttonClassName('primary', 'md', 'mt-6')}>
          Back to Atlas
        </Link>
      </section>
      {children}
    </PageContainer>
  );
}

function PlotLoadFailed({ onRetry }: { onRetry: () => void }) {
  usePageMeta(`Plot - ${SITE_NAME}`);
  return (
    <PageContainer className={`max-w-xl ${PLOT_FRAME_CLASS}`}>
      <section role="alert" className="pixel-panel p-6 text-center">
        <p className="text-ink">This plot could not be loaded right now.</p>
        <div className="mt-6 flex justify-center gap-3">
          <button type="button" className={buttonClassName('primary', 'sm')} onClick={onRetry}>
            Try again
          </button>
          <Link to="/" className={buttonClassName('secondary', 'sm')}>
            Back to Atlas
          </Link>
        </div>
      </section>
    </PageContainer>
  );
}

/** The profile's layout with blocks for its text: the panel and avatar are where the profile will put them. */
function PlotSkeleton() {
  usePageMeta(`Plot - ${SITE_NAME}`);
  return (
    <PageContainer className={`max-w-2xl ${PLOT_FRAME_CLASS}`}>
      <div aria-hidden="true" className="min-h-11" />
      <div role="status" aria-label="Loading plot" className="pixel-panel mt-4 animate-pulse p-6">
        <div className="flex flex-col items-center gap-5 sm:flex-row sm:items-start">
          <div className="size-28 shrink-0 bg-panel-raised" />
          <div className="grid w-full min-w-0 flex-1 justify-items-center gap-3 sm:justify-items-start">
            <div className="h-6 w-2/3 bg-panel-raised" />
            <div className="h-4 w-1/3 bg-panel-raised" />
            <div className="h-4 w-1/2 bg-panel-raised" />
          </div>
        </div>
      </div>
      <div aria-hidden="true" className={`${MAP_PREVIEW_BOX_CLASS} ${PLOT_MAP_PREVIEW_CLASS}`} />
    </PageContainer>
  );
}
