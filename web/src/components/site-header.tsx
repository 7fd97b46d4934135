import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { SITE_NAME } from '../lib/site.ts';
import { ClaimYourTileButton } from './claim-your-tile-button.tsx';

const NAV_ITEMS = [
  { to: '/about', label: 'About' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
] as const;

const navLinkClassName = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center px-3 text-sm font-semibold underline-offset-4 hover:text-gold hover:underline ${
    isActive ? 'text-gold underline' : 'text-ink'
  }`;

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const { pathname } = useLocation();

  // A route change means the person picked something: the menu has done its job. Closed in the same render.
  const [menuPathname, setMenuPathname] = useState(pathname);
  if (menuPathname !== pathname) {
    setMenuPathname(pathname);
    setMenuOpen(false);
  }

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  // The menu is a native disclosure, so it opens before the script runs (the prerendered first screen): a menu opened
  // then is open when the app takes over, and the app's state follows the element from there on.
  const menuRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (menuRef.current?.open) setMenuOpen(true);
  }, []);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b-2 border-border bg-night/95 backdrop-blur-sm">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="inline-flex min-h-11 items-center font-pixel text-xs text-gold sm:text-sm">
          {SITE_NAME}
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {NAV_ITEMS.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClassName}>
              {item.label}
            </NavLink>
          ))}
          <ClaimYourTileButton className="ml-3" />
        </nav>

        <details ref={menuRef} className="group md:hidden" open={menuOpen} onToggle={(event) => setMenuOpen(event.currentTarget.open)}>
          <summary
            aria-label="Menu"
            aria-controls={menuId}
            className="grid size-11 cursor-pointer list-none place-items-center border-2 border-border bg-panel [&::-webkit-details-marker]:hidden"
          >
            <MenuIcon />
          </summary>
          <nav id={menuId} aria-label="Mobile" className="absolute inset-x-0 top-16 border-y-2 border-border bg-panel px-4 pb-4">
            <ul className="flex flex-col">
              {NAV_ITEMS.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className={navLinkClassName} onClick={() => setMenuOpen(false)}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
            <ClaimYourTileButton className="mt-2 w-full" onActivate={() => setMenuOpen(false)} />
          </nav>
        </details>
      </div>
    </header>
  );
}

function MenuIcon() {
  // Drawn on a pixel grid so it stays crisp with the rest of the chrome; the open menu's cross shows by CSS alone.
  return (
    <>
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 10 10"
        shapeRendering="crispEdges"
        fill="currentColor"
        className="group-open:hidden"
      >
        <path d="M1 2h8v1.5H1zM1 4.25h8v1.5H1zM1 6.5h8V8H1z" />
      </svg>
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 10 10"
        shapeRendering="crispEdges"
        fill="currentColor"
        className="hidden group-open:block"
      >
        <path d="M1 1h2v1h1v1h2V2h1V1h2v2H8v1H7v2h1v1h1v2H7V8H6V7H4v1H3v1H1V7h1V6h1V4H2V3H1z" />
      </svg>
    </>
  );
}
