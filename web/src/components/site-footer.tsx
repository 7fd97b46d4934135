import { Link } from 'react-router';
import { SITE_NAME } from '../lib/site.ts';

const footerLinkClassName =
  'inline-flex min-h-11 items-center px-2 text-sm text-ink-muted underline-offset-4 hover:text-gold hover:underline';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t-2 border-border bg-panel">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <p className="max-w-sm text-sm text-ink-muted">A hand-drawn fantasy map of the internet, one creator at a time.</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap items-center">
            {/* Spec section 2: About and Contact are dead links in the footer. */}
            <li>
              <a href="#" className={footerLinkClassName}>
                About
              </a>
            </li>
            <li>
              <Link to="/faq" className={footerLinkClassName}>
                FAQ
              </Link>
            </li>
            <li>
              <a href="#" className={footerLinkClassName}>
                Contact
              </a>
            </li>
            <li>
              <Link to="/privacy" className={footerLinkClassName}>
                Privacy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={footerLinkClassName}>
                Terms
              </Link>
            </li>
          </ul>
        </nav>
        <p className="text-sm text-ink-muted">
          © {year} {SITE_NAME}
        </p>
      </div>
    </footer>
  );
}
