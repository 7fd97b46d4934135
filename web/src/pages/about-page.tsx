import type { ReactNode } from 'react';
import { PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import { Link } from 'react-router';
import { TIERS, TIER_SIZE, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

export function AboutPage() {
  usePageMeta(`About - ${SITE_NAME}`, `What ${SITE_NAME} is, how claiming a plot works and why it was built.`);
  const tierSizes = TIERS.map((tier) => `${tierPlotLabel(tier)} (${TIER_SIZE[tier]}x${TIER_SIZE[tier]})`).join(', ');

  return (
    <PageContainer>
      <h1 className="text-lg text-gold md:text-2xl">About {SITE_NAME}</h1>
      <p className="mt-6 text-lg leading-8 text-ink-muted">
        {SITE_NAME} is a shared fantasy map of the internet: a 90 by 90 tile world of islands, coasts and regions where creators claim a
        plot and make it their own. It is a love letter to the pixel-ad homepages of the early 2000s, redrawn as a world you can explore.
      </p>

      <AboutSection id="about-how" title="How it works" margin="mt-10">
        <ol className="mt-4 list-decimal space-y-2 pl-6 leading-7 text-ink-muted">
          <li>Pick a tier: {tierSizes}.</li>
          <li>Choose an empty land tile on the map, or let us pick a free spot for you.</li>
          <li>Add your display name, a short message, a link to your site and an avatar.</li>
          <li>Check your details, pay securely by card, and your plot appears on the map.</li>
        </ol>
        <p className="mt-4 leading-7 text-ink-muted">
          Visitors pan and zoom the map, hover plots to read their cards, open plot pages and follow links to the creators behind them.
        </p>
      </AboutSection>

      <AboutSection id="about-why" title="Why?">
        <p className="mt-4 leading-7 text-ink-muted">
          Feeds forget you by tomorrow. A plot on the atlas is a fixed place: a spot people can find again, next to neighbours who build
          things too. Regions are themed by creator type, so wandering the map is a way to discover new people, not just a list to scroll
          past.
        </p>
      </AboutSection>

      <AboutSection id="about-lasting" title="Built to last">
        <p className="mt-4 leading-7 text-ink-muted">
          Plots are permanent, so the map stays a stable record rather than a billboard that changes every week. {PLOT_CHANGE_POLICY}{' '}
          Content is screened automatically, visitors can flag anything that breaks the rules, and our team reviews reports, usually within
          24 hours. The service aims for 99.9% uptime.
        </p>
      </AboutSection>

      <div className="mt-12 flex justify-center">
        <Link to="/" className={buttonClassName('primary')}>
          Explore the Atlas
        </Link>
      </div>
    </PageContainer>
  );
}

/** A titled panel of the page, named by its heading; `margin` is the space above it. */
function AboutSection({ id, title, margin = 'mt-8', children }: { id: string; title: string; margin?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`pixel-panel ${margin} p-6`}>
      <h2 id={id} className="text-sm text-gold">
        {title}
      </h2>
      {children}
    </section>
  );
}
