import { PLOT_CHANGE_POLICY, SALES_FINAL } from '@pixel-atlas/contracts/policy';
import { TIERS, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { plotsQuery } from '../../api/queries.ts';
import { TierCard } from '../../components/tier-card.tsx';
import { SITE_NAME } from '../../lib/site.ts';
import { SELECTED_TIER_KEY } from '../../lib/storage-keys.ts';
import { CLAIM_SECTION_ID, dispatchTierGuidance, scrollToMap } from '../../lib/tier-guidance.ts';
import { mostPopularTier } from './popular-tier.ts';

const TIER_SELECT_SCROLL_DELAY_MS = 100;

const BENEFITS = [
  {
    title: 'A permanent spot',
    text: 'Your plot stays on the map for as long as the atlas runs: a lasting place in a curated directory of creators.',
  },
  { title: 'A do-follow backlink', text: 'Your plot links straight to your website, so visitors and search engines can find you.' },
  { title: 'A community of creators', text: 'Settle next to other makers, streamers, writers and founders in themed regions of the map.' },
  { title: 'Your own profile card', text: 'Your avatar, display name and a short message, shown on the map and on your own plot page.' },
] as const;

export function ClaimSection() {
  // The map's own plot list (one request for the page): 'Most popular' is what the sales say, or nothing.
  const plots = useQuery(plotsQuery());
  const popular = mostPopularTier(plots.data);
  const selectTier = (tier: Tier) => {
    localStorage.setItem(SELECTED_TIER_KEY, tier);
    dispatchTierGuidance({ tier });
    window.setTimeout(scrollToMap, TIER_SELECT_SCROLL_DELAY_MS);
  };

  return (
    <section id={CLAIM_SECTION_ID} aria-labelledby="claim-heading" className="scroll-mt-20 border-t-2 border-border bg-night">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="claim-heading" className="text-center text-base text-gold md:text-xl">
          Claim Your Place in {SITE_NAME}
        </h2>
        <ul className="mx-auto mt-10 grid max-w-4xl gap-4 sm:grid-cols-2">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="pixel-panel flex gap-3 p-4">
              <span aria-hidden="true" className="mt-1 block size-3 shrink-0 bg-gold" />
              <div>
                <p className="font-semibold text-ink">{benefit.title}</p>
                <p className="mt-1 text-sm text-ink-muted">{benefit.text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {TIERS.map((tier) => (
            <TierCard key={tier} tier={tier} onSelect={selectTier} popular={tier === popular} />
          ))}
        </div>
        <p data-testid="plot-policy" className="mt-8 text-center text-sm text-ink-muted">
          {`${SALES_FINAL} ${PLOT_CHANGE_POLICY}`}
        </p>
      </div>
    </section>
  );
}
