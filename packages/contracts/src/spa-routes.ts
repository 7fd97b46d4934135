/**
 * Spec section 2's route table, as the web app's router has it (web/src/app-routes.tsx; a web test keeps the
 * two equal). The gateway answers any other page path with HTTP 404 and the app's 404 screen.
 */
export const SPA_ROUTE_PATHS = [
  '/',
  '/claim',
  '/plot/:id',
  '/user/:username',
  '/regions',
  '/regions/:slug',
  '/about',
  '/faq',
  '/contact',
  '/terms',
  '/privacy',
  '/demo',
  '/admin',
  '/manage/:token',
  '/owner-link',
] as const;

function routeMatcher(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // Like the router: case-insensitive, one optional trailing slash.
  return new RegExp(`^/${segments.join('/')}${segments.length ? '/?' : ''}$`, 'i');
}

const ROUTE_MATCHERS = SPA_ROUTE_PATHS.map(routeMatcher);

/** True when the router shows a screen of its own for this path (not its 404 screen). */
export function isSpaRoute(pathname: string): boolean {
  return ROUTE_MATCHERS.some((matcher) => matcher.test(pathname));
}
