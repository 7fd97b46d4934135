import { CHECK_BEFORE_PAYING, PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import { Link } from 'react-router';
import { TIERS, TIER_SIZE, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { TierPrice } from '../features/claim/use-prices.tsx';
import { LegalContact, LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { PROHIBITED_CONTENT } from '../lib/prohibited-content.ts';
import { SITE_NAME } from '../lib/site.ts';

export function TermsPage() {
  usePageMeta(`Terms of Service - ${SITE_NAME}`, `The terms that apply when you use ${SITE_NAME} or claim a plot on the map.`);

  return (
    <LegalPage title="Terms of Service">
      <h2>1. About these terms</h2>
      <p>
        These terms govern your use of {SITE_NAME} (the "Service"): the interactive map, the plot pages, the user pages and everything you
        buy through it. "We" and "us" mean the operator of {SITE_NAME}; "you" means the person using the Service. By browsing the map or
        claiming a plot you agree to these terms and to our <Link to="/privacy">Privacy Policy</Link>. If you do not agree, please do not
        use the Service.
      </p>

      <h2>2. Who may use the Service</h2>
      <p>
        You must be <strong>18 years of age or older</strong> to claim a plot, send us a message or otherwise use the Service. By using it
        you confirm that you are at least 18 and able to enter into a binding agreement. If you claim a plot on behalf of a business, you
        confirm that you are authorised to bind it to these terms.
      </p>

      <h2>3. What the Service is</h2>
      <p>
        {SITE_NAME} is a shared fantasy map of the internet on a 90 by 90 tile grid. Visitors can explore the map, open plot profiles, share
        plots and flag content. Creators can claim a plot: a square of land tiles that shows an avatar, a display name, a short message and
        a link to a website. One person may claim several plots; each is bought separately and carries its own information.
      </p>

      <h2>4. Plot tiers</h2>
      <p>There are four tiers. Each plot is a square measured from its top-left tile:</p>
      <ul>
        {TIERS.map((tier) => (
          <li key={tier}>
            <strong>{tierPlotLabel(tier)}</strong>: {TIER_SIZE[tier]}x{TIER_SIZE[tier]} tiles, listed at <TierPrice tier={tier} />
          </li>
        ))}
      </ul>
      <p>
        The price that applies to your purchase is the one shown on the checkout page at the time you pay. Plots can only be placed on free
        land; water tiles cannot be claimed and plots never overlap.
      </p>

      <h2>5. What you buy</h2>
      <p>
        Claiming a plot gives you the right to have the content you submit displayed at that position on the map, and on a plot page of its
        own, for as long as the Service operates and subject to these terms. It does not give you ownership of any part of the Service, its
        map or its software, and a plot cannot be resold or transferred through the Service.
      </p>
      <p>
        Payment is taken by card through our third-party payment provider. Your chosen spot is held for you while the checkout session is
        open. If the spot is lost anyway, your payment still entitles you to one plot of the tier you paid for, and you may choose another
        free spot. Each payment buys exactly one plot.
      </p>

      <h2>6. All sales are final</h2>
      <p>
        <strong>All sales are final and we do not give refunds</strong>, including when a plot is removed because it breaks the content
        rules in section 8. Nothing in these terms limits any right you have under the law of your country that cannot be waived by
        contract.
      </p>

      <h2>7. Your content and what you can change</h2>
      <p>
        You are responsible for everything you submit: display name, message, link, avatar and any email address you give us. You confirm
        that you own it or have permission to use it, and that it does not break the law or these terms. You grant us a worldwide,
        non-exclusive, royalty-free licence to store, reproduce, resize and display that content on the Service and in links and previews of
        it (for example when a plot is shared), for as long as the plot exists.
      </p>
      <p>
        <strong>{PLOT_CHANGE_POLICY}</strong> {CHECK_BEFORE_PAYING} They are shown in the claim popup next to the pay button; once the
        payment goes through, the plot is placed with the details you entered. Avatars are re-encoded into a square image when stored.
      </p>

      <h2>8. Prohibited content</h2>
      <p>Your plot, including the website it links to, must not contain or promote:</p>
      <ol>
        {PROHIBITED_CONTENT.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ol>
      <p>
        <strong>A violation means immediate removal of the plot, without refund.</strong> Whether content breaks these rules is decided by
        us.
      </p>

      <h2>9. Moderation</h2>
      <p>
        Content is screened automatically when it is submitted. Visitors can flag any plot they believe breaks these terms. Our admins
        review screened and flagged plots, usually within 24 hours, and approve or remove them. A plot held by the automatic screen becomes
        visible once it is approved. A flag alone never hides or removes a plot. If you give us an email address when your content is held
        for review, we may use it to tell you about the outcome.
      </p>

      <h2>10. Acceptable use of the Service</h2>
      <p>
        Do not interfere with the Service: no attempts to break or overload it, scrape it at a rate that harms other users, bypass payment,
        claim plots with payment sessions that are not yours, abuse the flag feature or the contact form, or access the administration area
        without authorisation. We may limit or block access that does any of these things.
      </p>

      <h2>11. Links to other sites</h2>
      <p>
        Plots link to websites run by their creators, not by us. We do not control and are not responsible for those sites, their content or
        their privacy practices. Visiting them is at your own risk.
      </p>

      <h2>12. Availability</h2>
      <p>
        We aim for <strong>99.9% uptime</strong>. This is a goal, not a guarantee: planned maintenance, failures of our providers and events
        outside our control can interrupt the Service. We may change and improve the map and the Service; claimed plots and their content
        stay in place while we do.
      </p>

      <h2>13. Our intellectual property</h2>
      <p>
        The Service, its map artwork, design, text and software belong to us or our licensors. You may share links to plots and screenshots
        of the map for non-commercial purposes. Everything else requires our written permission.
      </p>

      <h2>14. Disclaimers and liability</h2>
      <p>
        The Service is provided "as is" and "as available". We do not promise any particular amount of traffic, search-engine ranking or
        other result from a plot. To the fullest extent the law allows, we are not liable for indirect or consequential losses, lost profits
        or lost data, and our total liability to you for any claim relating to the Service is limited to the amount you paid us for the plot
        the claim concerns. Nothing here limits liability that cannot be limited by law, such as liability for fraud.
      </p>

      <h2>15. Ending use</h2>
      <p>
        You may stop using the Service at any time. We may suspend or end access for anyone who breaks these terms. If we ever decide to
        shut the Service down, we will announce it on the site in advance.
      </p>

      <h2>16. Changes to these terms</h2>
      <p>
        We may update these terms. The effective date at the top shows the current version; material changes are announced on the site
        before they take effect. Purchases are governed by the terms in force when you paid.
      </p>

      <h2>17. Contact</h2>
      <LegalContact />
    </LegalPage>
  );
}
