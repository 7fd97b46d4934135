import { describe, expect, it } from 'vitest';
import { isSpaRoute } from './spa-routes.ts';

describe('the route table', () => {
  it.each([
    '/',
    '/claim',
    '/claim/',
    '/plot/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11',
    '/user/Ada%20Pixel',
    '/regions',
    '/regions/tech-creator-core',
    '/Regions/uncharted/',
    '/about',
    '/FAQ',
    '/contact',
    '/terms',
    '/privacy',
    '/demo',
    '/admin',
  ])('knows %s', (path) => expect(isSpaRoute(path)).toBe(true));
  it.each([
    '/no-such-page',
    '/plots',
    '/plot',
    '/plot/',
    '/plot/a/b',
    '/user',
    '/admin/extra',
    '/claim//',
    '//',
    '/about.',
    '/abouts',
    '/region',
    '/regions/a/b',
  ])('does not know %s', (path) => expect(isSpaRoute(path)).toBe(false));
});
