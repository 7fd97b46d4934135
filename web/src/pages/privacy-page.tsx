import { PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import { Link } from 'react-router';
import { LegalContact, LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

export function PrivacyPage() {
  usePageMeta(`Privacy Policy - ${SITE_NAME}`, `What personal data ${SITE_NAME} collects, why, how long it is kept and your rights.`);

  return (
    <LegalPage title="Privacy Policy">
      <h2>1. Who we are</h2>
      <p>
        This policy explains how the operator of {SITE_NAME} ("we", "us") handles personal data when you visit the map, claim a plot or
        contact us. We are the controller of that data. Questions about this policy go to the contact details in section 12.
      </p>

      <h2>2. What we collect</h2>
      <h3>When you claim a plot</h3>
      <ul>
        <li>
          <strong>Plot content</strong>: display name, message, website link, avatar image, position, tier and zone. This is published on
          the map, on your plot page and on the user page for your display name. Do not put anything in it you want to keep private.
        </li>
        <li>
          <strong>Notification email</strong> (optional): only if you give it to us when your content is held for review, to tell you about
          the outcome. The email address you give at checkout reaches us from the payment provider and is kept with your plot for as long as
          it exists, only to send your receipt and owner link, to tell you about your plot, and to send new owner links when you ask for
          them.
        </li>
        <li>
          <strong>Payment records</strong>: the payment session identifier, amount, currency, tier, status and time. Card payments are
          processed by our payment provider; we never receive or store your card number. The provider may collect your name, email address,
          billing details and card details under its own privacy policy.
        </li>
      </ul>
      <h3>When you contact us</h3>
      <ul>
        <li>Your name, email address, the subject you choose and your message.</li>
      </ul>
      <h3>When you browse</h3>
      <ul>
        <li>
          <strong>Technical data</strong>: IP address, browser type, the pages requested and timestamps, in our server logs and to enforce
          rate limits and stop abuse (for example repeated flags or payment sessions being reused).
        </li>
        <li>
          <strong>Flags</strong>: when you flag a plot we store the flag with technical information about your connection, so each visitor
          can flag a plot only once.
        </li>
        <li>
          <strong>Session recording data</strong>: records of how a browsing session used the site (pages visited, clicks and errors), which
          we use to find and fix problems.
        </li>
      </ul>

      <h2>3. Browser storage and cookies</h2>
      <p>We use only storage the site needs to work; there are no advertising cookies.</p>
      <ul>
        <li>
          <strong>Local storage</strong>: <code>selectedTier</code> (the tier you picked) and <code>tempClaimData</code> (a draft of your
          claim). Both are removed when you close the page or start a new browser session.
        </li>
        <li>
          <strong>Session storage</strong>: <code>app_initialized</code> (marks that this browser session has started) and your pending
          claim while you are at the payment provider. Session storage is cleared when the tab is closed.
        </li>
        <li>
          <strong>Admin session cookie</strong>: set only for administrators who sign in, to keep them signed in securely.
        </li>
      </ul>

      <h2>4. Why we use it</h2>
      <ul>
        <li>To create, display and moderate your plot, and to verify that it was paid for (performance of our contract with you).</li>
        <li>To answer your messages (our legitimate interest in supporting users, or steps you ask for before a contract).</li>
        <li>To keep the Service secure, prevent fraud and abuse, and fix errors (our legitimate interest in a safe, working Service).</li>
        <li>To keep accounting and tax records (legal obligation).</li>
      </ul>
      <p>We do not sell personal data, and we do not use it for advertising or automated decisions with legal effects.</p>

      <h2>5. Content screening</h2>
      <p>
        Plot names and messages are screened automatically for prohibited content when submitted. Flagged content is reviewed by a person,
        usually within 24 hours, before any decision to remove a plot.
      </p>

      <h2>6. Who we share it with</h2>
      <ul>
        <li>
          <strong>Everyone</strong>: your plot content is public by design, and search engines and people sharing your plot can copy it.
        </li>
        <li>
          <strong>Our payment provider</strong>, to take payment and prevent payment fraud.
        </li>
        <li>
          <strong>Hosting and infrastructure providers</strong> that store and serve the Service for us under contract and only on our
          instructions.
        </li>
        <li>
          <strong>Authorities</strong>, when the law requires it or to protect rights and safety.
        </li>
      </ul>

      <h2>7. How long we keep it</h2>
      <ul>
        <li>
          <strong>Payment records</strong>: kept for the life of the site or 7 years, to meet accounting and tax obligations. They are kept
          even if the plot they paid for is removed.
        </li>
        <li>
          <strong>Session recording data</strong>: kept for 30 days, then deleted.
        </li>
        <li>
          <strong>Plot content</strong>: for as long as the plot is on the map. Content of a removed plot is no longer published.
        </li>
        <li>
          <strong>Email addresses</strong>: one given at checkout or with your plot, for as long as the plot exists, to send its receipt,
          owner links and notices about it; one given only for a review notice, until that review is finished.
        </li>
        <li>
          <strong>Contact messages</strong>: for as long as needed to handle your request and any follow-up.
        </li>
        <li>
          <strong>Server logs</strong>: only as long as needed for security and troubleshooting.
        </li>
      </ul>

      <h2>8. Your rights</h2>
      <p>
        Depending on where you live, you may have the right to access your personal data, correct it, delete it, restrict or object to its
        use, receive a copy in a portable format, and withdraw consent where we rely on it. {PLOT_CHANGE_POLICY} You can also ask us to
        remove personal data from a plot, including from its name; requests are handled under data protection law, and such a removal is not
        a refund. You may also complain to your local data protection authority. To exercise a right, contact us as described below; we may
        ask you to prove you own the plot or data concerned.
      </p>

      <h2>9. Children</h2>
      <p>
        The Service is for people aged 18 or older, as our <Link to="/terms">Terms of Service</Link> require. We do not knowingly collect
        data from anyone younger; if you believe a minor has given us personal data, contact us and we will delete it.
      </p>

      <h2>10. Security and transfers</h2>
      <p>
        Data travels over encrypted connections, administrator passwords are stored only as salted hashes, and access to personal data is
        limited to people who need it. Our providers may process data in other countries; where that happens we rely on appropriate
        safeguards such as standard contractual clauses.
      </p>

      <h2>11. Changes to this policy</h2>
      <p>
        When we change this policy we update the effective date at the top and, for material changes, announce them on the site before they
        take effect.
      </p>

      <h2>12. Contact</h2>
      <LegalContact />
    </LegalPage>
  );
}
