import { TIER_COLOR, TIER_SIZE, tierPlotLabel, type Tier } from '@pixel-atlas/contracts/tiers';
import { ZONE_NAMES } from '@pixel-atlas/contracts/zones';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

/** Sample data for the static preview of the /claim confirm step (spec section 2, /demo). */
const SAMPLE_PLOT = {
  displayName: 'Ada Pixelwright',
  message: 'Hand-drawn pixel tilesets and weekly devlogs about tiny worlds.',
  link: 'https://example.com',
  x: 42,
  y: 17,
  zone: ZONE_NAMES.creator,
  tier: 'featured' as Tier,
};

export function DemoPage() {
  usePageMeta(`Demo: Confirm your plot details - ${SITE_NAME}`);
  const tierColor = TIER_COLOR[SAMPLE_PLOT.tier].hex;
  const size = TIER_SIZE[SAMPLE_PLOT.tier];

  return (
    <PageContainer className="max-w-xl">
      <p className="mb-4 border-2 border-dashed border-border p-3 text-center text-sm text-ink-muted">
        Preview only: this is how the last step of a claim looks. Nothing here is saved or charged.
      </p>
      <section aria-labelledby="demo-heading" className="pixel-panel p-6">
        <h1 id="demo-heading" className="text-sm text-gold md:text-base">
          Confirm your plot details
        </h1>

        <div className="mt-6 flex items-center gap-4">
          <SampleAvatar color={tierColor} />
          <div>
            <p className="text-lg font-semibold text-ink">{SAMPLE_PLOT.displayName}</p>
            <p className="text-sm text-ink-muted">{SAMPLE_PLOT.message}</p>
          </div>
        </div>

        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          <dt className="text-ink-muted">Display name</dt>
          <dd className="text-ink">{SAMPLE_PLOT.displayName}</dd>
          <dt className="text-ink-muted">Message</dt>
          <dd className="text-ink">{SAMPLE_PLOT.message}</dd>
          <dt className="text-ink-muted">Link</dt>
          <dd className="break-all text-sky">{SAMPLE_PLOT.link}</dd>
          <dt className="text-ink-muted">Location</dt>
          <dd className="text-ink">
            ({SAMPLE_PLOT.x}, {SAMPLE_PLOT.y})
          </dd>
          <dt className="text-ink-muted">Zone</dt>
          <dd className="text-ink">{SAMPLE_PLOT.zone}</dd>
          <dt className="text-ink-muted">Tier</dt>
          <dd className="text-ink">
            <span className="inline-block border-2 border-black px-2 py-0.5 font-pixel text-[0.6rem] text-ink-dark" style={{ background: tierColor }}>
              {tierPlotLabel(SAMPLE_PLOT.tier)}
            </span>{' '}
            {size}x{size}
          </dd>
        </dl>

        <p className="mt-6 border-2 border-gold p-3 text-sm text-ink">
          Plot details cannot be changed after claiming. Please check everything before you confirm.
        </p>

        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClassName('secondary')}>
            EDIT DETAILS
          </button>
          <button type="button" className={buttonClassName('primary')}>
            CONFIRM &amp; CLAIM
          </button>
        </div>
      </section>
    </PageContainer>
  );
}

/** Circular pixel-art portrait standing in for an uploaded avatar. */
function SampleAvatar({ color }: { color: string }) {
  return (
    <svg role="img" aria-label="Sample avatar" viewBox="0 0 16 16" shapeRendering="crispEdges" className="size-20 shrink-0 rounded-full border-2 border-black">
      <rect width="16" height="16" fill={color} />
      <rect x="5" y="3" width="6" height="6" fill="#f4d3b0" />
      <rect x="4" y="2" width="8" height="2" fill="#5b3a1e" />
      <rect x="6" y="5" width="1" height="1" fill="#1a1326" />
      <rect x="9" y="5" width="1" height="1" fill="#1a1326" />
      <rect x="7" y="7" width="2" height="1" fill="#b45309" />
      <rect x="3" y="10" width="10" height="6" fill="#1a1326" />
      <rect x="7" y="10" width="2" height="3" fill="#f2c14e" />
    </svg>
  );
}
