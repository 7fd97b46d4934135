import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

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
