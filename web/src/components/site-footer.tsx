import { Link } from 'react-router';
import { REGION_PAGE_LINKS } from '../lib/region-directory.ts';
import { SITE_NAME } from '../lib/site.ts';

const footerLinkClassName =
  'inline-flex min-h-11 items-center px-2 text-sm text-ink-muted underline-offset-4 hover:text-gold hover:underline';

/** In the footer's order; the spec (section 2) keeps About and Contact as dead links (no route). */
const FOOTER_LINKS: ReadonlyArray<{ label: string; to?: string }> = [
  { label: 'About' },
  { label: 'FAQ', to: '/faq' },
  { label: 'Contact' },
  { label: 'Privacy', to: '/privacy' },
  { label: 'Terms', to: '/terms' },
  { label: 'Lost your owner link?', to: '/owner-link' },
];

const regionLinkClassName =
  'inline-flex min-h-8 items-center px-2 text-xs text-ink-muted underline-offset-4 hover:text-gold hover:underline';

/**
 * The directory from every page, in plain links: /regions and each region's page (the home page's own HTML carries
 * them, so a crawler reaches every plot within three links of /).
 */
function RegionLinks() {
  return (
    <nav aria-label="Regions of the Atlas" className="mx-auto max-w-6xl px-4 pt-8">
      <ul className="-mx-2 flex flex-wrap items-center">
        <li>
          <Link to="/regions" className={`${regionLinkClassName} font-semibold text-ink`}>
            Regions of the Atlas
          </Link>
        </li>
        {REGION_PAGE_LINKS.map(({ name, to }) => (
          <li key={to}>
            <Link to={to} className={`${regionLinkClassName} text-ink-muted`}>
              {name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t-2 border-border bg-panel">
      <RegionLinks />
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <p className="max-w-sm text-sm text-ink-muted">A hand-drawn fantasy map of the internet, one creator at a time.</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap items-center">
            {FOOTER_LINKS.map(({ label, to }) => (
              <li key={label}>
                {to ? (
                  <Link to={to} className={footerLinkClassName}>
                    {label}
                  </Link>
                ) : (
                  <a href="#" className={footerLinkClassName}>
                    {label}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </nav>
        {/* A page rendered in one year may be hydrated in the next: the year is the browser's then. */}
        <p className="text-sm text-ink-muted" suppressHydrationWarning>
          © {year} {SITE_NAME}
        </p>
      </div>
    </footer>
  );
}
