import type { ReactNode } from 'react';
import { CHECK_BEFORE_PAYING, PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/region-catalog';
import { TIERS, TIER_SIZE, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { TierPrice } from '../../features/claim/use-prices.tsx';
import { ZONES, ZONE_NAMES } from '@pixel-atlas/contracts/zones';
import { PROHIBITED_CONTENT } from '../../lib/prohibited-content.ts';
import { SITE_NAME } from '../../lib/site.ts';

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

export interface FaqCategory {
  id: string;
  title: string;
  items: FaqItem[];
}

const regionNames = REGION_DEFINITIONS.map((region) => region.name).join(', ');
const zoneNames = ZONES.map((zone) => ZONE_NAMES[zone]).join(', ');

export const FAQ_CATEGORIES: FaqCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    items: [
      {
        id: 'what-is',
        question: `What is ${SITE_NAME}?`,
        answer: (
          <p>
            {SITE_NAME} is an interactive, pixel-art fantasy map of the internet. Creators claim plots on a 90 by 90 tile world and fill
            them with an avatar, a display name, a short message and a link to their website. Anyone can explore the map for free.
          </p>
        ),
      },
      {
        id: 'how-to-claim',
        question: 'How do I claim a plot?',
        answer: (
          <>
            <ol>
              <li>
                <strong>Choose a tier</strong> in the claim section below the map (or press 'Claim Your Tile').
              </li>
              <li>
                <strong>Click an empty land tile</strong> on the map, or let us auto-assign a free spot.
              </li>
              <li>
                <strong>Fill in your profile</strong>: display name (2 to 30 characters), a message of up to 140 characters and a link to
                your site.
              </li>
              <li>
                <strong>Upload an avatar</strong>, crop it and save it.
              </li>
              <li>
                <strong>Check your details and pay</strong> by card through our secure payment provider. Back on {SITE_NAME}, your plot is
                placed at once with the details you entered.
              </li>
            </ol>
          </>
        ),
      },
      {
        id: 'navigate-map',
        question: 'How do I move around the map?',
        answer: (
          <>
            <p>
              <strong>On a computer:</strong> click and drag to explore, scroll to zoom, and click tiles: a claimed tile opens its profile,
              an empty land tile starts a claim.
            </p>
            <p>
              <strong>On a phone or tablet:</strong> pinch to zoom, drag to explore, and tap tiles to view or claim them.
            </p>
            <p>
              The buttons in the bottom-right corner zoom in, zoom out, reset the view and fit the whole map. The Atlas Regions menu on the
              left jumps to a region, and Find Plots lists every claimed plot.
            </p>
          </>
        ),
      },
    ],
  },
  {
    id: 'plot-information',
    title: 'Plot Information',
    items: [
      {
        id: 'tiers',
        question: 'What plot sizes are there?',
        answer: (
          <>
            <p>There are four tiers. A plot is a square of tiles measured from its top-left corner:</p>
            <ul>
              {TIERS.map((tier) => (
                <li key={tier}>
                  <strong>{tierPlotLabel(tier)}</strong>: {TIER_SIZE[tier]}x{TIER_SIZE[tier]} tiles, <TierPrice tier={tier} />
                </li>
              ))}
            </ul>
          </>
        ),
      },
      {
        id: 'zones',
        question: 'What are the regions and zones?',
        answer: (
          <>
            <p>
              The map is divided into thirteen regions themed by creator type: {regionNames}. Hover or tap a region label to read who
              settles there.
            </p>
            <p>Each plot also lists a zone chosen when it is claimed: {zoneNames}.</p>
          </>
        ),
      },
      {
        id: 'water',
        question: 'Can I claim any tile?',
        answer: <p>Only empty land tiles can be claimed; water cannot. Your whole plot must fit on free land, and plots never overlap.</p>,
      },
      {
        id: 'edit',
        question: 'Can I change my plot after claiming it?',
        answer: (
          <p>
            Partly. {PLOT_CHANGE_POLICY} The private link is shown when your plot is claimed. {CHECK_BEFORE_PAYING} The claim popup shows
            them next to the PAY &amp; CLAIM button: after paying, your plot is placed straight away. The link is also in the receipt we
            e-mail to the address you give at checkout; if you lose it, <a href="/owner-link">Lost your owner link?</a> sends a new one
            there.
          </p>
        ),
      },
      {
        id: 'multiple',
        question: 'Can I own more than one plot?',
        answer: <p>Yes. Each plot is bought separately and carries its own name, message, link and avatar.</p>,
      },
    ],
  },
  {
    id: 'value',
    title: 'Value & Benefits',
    items: [
      {
        id: 'what-you-get',
        question: 'What do I get with a plot?',
        answer: (
          <ul>
            <li>A permanent position in a curated, browsable directory of creators.</li>
            <li>A do-follow backlink from your plot to your website.</li>
            <li>A place in a community of creators, next to neighbours in your themed region.</li>
            <li>A custom profile card and your own plot page you can share.</li>
          </ul>
        ),
      },
      {
        id: 'how-long',
        question: 'How long does my plot stay on the map?',
        answer: (
          <p>
            Plots are permanent for as long as {SITE_NAME} runs. The only reason a plot is removed is a breach of our content rules (see
            Community below).
          </p>
        ),
      },
      {
        id: 'bigger-tiers',
        question: 'Why choose a bigger tier?',
        answer: (
          <p>Bigger plots cover more of the map, carry a stronger tier-coloured glow and are easier to spot when the map is zoomed out.</p>
        ),
      },
    ],
  },
  {
    id: 'payment',
    title: 'Payment & Refunds',
    items: [
      {
        id: 'how-to-pay',
        question: 'How do I pay?',
        answer: (
          <p>
            By card, through our payment provider's secure checkout page. Your card details go straight to the provider; we never see or
            store your card number.
          </p>
        ),
      },
      {
        id: 'refunds',
        question: 'Can I get a refund?',
        answer: (
          <p>No. All sales are final. That includes plots removed for breaking our content rules: removal happens without a refund.</p>
        ),
      },
      {
        id: 'spot-taken',
        question: 'What if someone takes my spot while I am paying?',
        answer: (
          <p>
            Your chosen spot is held for you while you pay. If it is lost anyway, your payment still entitles you to a plot of the tier you
            paid for, and you can pick another free spot.
          </p>
        ),
      },
    ],
  },
  {
    id: 'technical',
    title: 'Technical',
    items: [
      {
        id: 'avatar',
        question: 'What image can I use as my avatar?',
        answer: (
          <p>
            A JPG, PNG or GIF of up to 1 MB. You crop it before saving; we re-encode it into a small square image, which also strips any
            hidden metadata.
          </p>
        ),
      },
      {
        id: 'devices',
        question: 'Which devices are supported?',
        answer: (
          <p>
            Any current desktop or mobile browser. The map is built for touch as well as mouse, and every control is reachable by keyboard.
          </p>
        ),
      },
      {
        id: 'map-not-loading',
        question: 'The map does not load. What can I do?',
        answer: (
          <p>
            Reload the page first. If you see a message that the map is not available, it is being prepared and will be back shortly. If the
            problem continues, tell us through the contact form.
          </p>
        ),
      },
    ],
  },
  {
    id: 'community',
    title: 'Community',
    items: [
      {
        id: 'allowed-content',
        question: 'What content is not allowed?',
        answer: (
          <>
            <p>Plots must not contain or link to:</p>
            <ul>
              {PROHIBITED_CONTENT.map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ul>
            <p>A violation means immediate removal of the plot, without refund.</p>
          </>
        ),
      },
      {
        id: 'moderation',
        question: 'How is content moderated?',
        answer: (
          <p>
            Every plot is screened automatically when it is submitted, visitors can flag content, and our admins review flagged plots,
            usually within 24 hours. A plot held by the automatic screen appears once it is approved.
          </p>
        ),
      },
      {
        id: 'report',
        question: 'How do I report a plot?',
        answer: (
          <p>
            Open the plot on the map and press the flag button on its profile card. A flag does not hide a plot by itself; it sends the plot
            to our review queue.
          </p>
        ),
      },
    ],
  },
];
