import { TIER_COLOR, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { ConfirmDetails, type ConfirmDetailsData } from '../features/claim/confirm-details.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

const SAMPLE_TIER: Tier = 'featured';

/** Sample data for the static preview of the /claim confirm step (spec section 2, /demo). */
const SAMPLE_PLOT: ConfirmDetailsData = {
  display_name: 'Ada Pixelwright',
  message: 'Hand-drawn pixel tilesets and weekly devlogs about tiny worlds.',
  link: 'https://example.com',
  x: 42,
  y: 17,
  zone: 'creator',
  tier: SAMPLE_TIER,
  avatar: <SampleAvatar color={TIER_COLOR[SAMPLE_TIER].hex} />,
};

/** The same confirm step /claim shows, with sample data and buttons that do nothing. */
export function DemoPage() {
  usePageMeta(`Demo: Confirm your plot details - ${SITE_NAME}`);
  return (
    <PageContainer className="max-w-xl">
      <p className="mb-4 border-2 border-dashed border-border p-3 text-center text-sm text-ink-muted">
        Preview only: this is how the last step of a claim looks. Nothing here is saved or charged.
      </p>
      <ConfirmDetails
        data={SAMPLE_PLOT}
        headingLevel={1}
        actions={
          <>
            <button type="button" className={buttonClassName('secondary')}>
              EDIT DETAILS
            </button>
            <button type="button" className={buttonClassName('primary')}>
              CONFIRM &amp; CLAIM
            </button>
          </>
        }
      />
    </PageContainer>
  );
}

/** Circular pixel-art portrait standing in for an uploaded avatar. */
function SampleAvatar({ color }: { color: string }) {
  return (
    <svg
      role="img"
      aria-label="Sample avatar"
      viewBox="0 0 16 16"
      shapeRendering="crispEdges"
      className="size-20 shrink-0 rounded-full border-2 border-black"
    >
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
