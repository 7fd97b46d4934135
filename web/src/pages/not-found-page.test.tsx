import { SPA_ROUTE_PATHS, isSpaRoute } from '@pixel-atlas/contracts/spa-routes';
import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { appRoutes } from '../app-routes.tsx';
import { renderApp } from '../test/render-app.tsx';

/** Every path of the router's table, '*' aside, as the gateway would see it. */
function routerPaths(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? parent || '/' : route.path ? `${parent}/${route.path}`.replace(/\/+/g, '/') : parent;
    const children = route.children ? routerPaths(route.children, own === '/' ? '' : own) : [];
    return [...(route.index || (route.path && route.path !== '*') ? [own] : []), ...children];
  });
}

describe('unknown routes', () => {
  it.each(['/no-such-page', '/plots', '/admin/extra/deep'])('%s shows the 404 screen inside the shell', (path) => {
    renderApp(path);

    expect(screen.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
  });

  it('does not show the 404 screen on a known route', () => {
    renderApp('/terms');
    expect(screen.queryByText('404 Page Not Found')).toBeNull();
  });
});

describe('the route table the gateway answers 200 for', () => {
  it("is the router's own (a new route must be added to SPA_ROUTE_PATHS too, or the gateway answers it with 404)", () => {
    expect([...routerPaths(appRoutes)].sort()).toEqual([...SPA_ROUTE_PATHS].sort());
  });

  it.each(['/no-such-page', '/plots', '/admin/extra/deep'])('%s, which shows the 404 screen, is unknown to the gateway', (path) => {
    expect(isSpaRoute(path)).toBe(false);
    renderApp(path);
    expect(screen.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
  });
});
