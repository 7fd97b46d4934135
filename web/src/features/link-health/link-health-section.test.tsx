import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../../test/render-app.tsx';

const signedIn = () => jsonResponse({ username: 'warden' });
const entry = (overrides: Record<string, unknown>) => ({
  plotId: '0b6f4f4e-8f5c-4d69-9d43-1f6b1c7a0a01',
  displayName: 'Ada',
  link: 'https://ada.example/',
  status: 'failing',
  lastOkAt: '2026-11-20T08:00:00.000Z',
  lastCheckedAt: '2026-11-24T08:00:00.000Z',
  lastError: 'HTTP 404',
  consecutiveFailures: 2,
  failingSince: '2026-11-23T08:00:00.000Z',
  ...overrides,
});

describe('admin link health', () => {
  it('lists failing and unreachable links with why and since when, the link kept as a link', async () => {
    const gateway = fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/admin/link-health?status=failing': [
        () =>
          jsonResponse({
            links: [
              entry({
                plotId: '0b6f4f4e-8f5c-4d69-9d43-1f6b1c7a0a02',
                displayName: 'Grace',
                status: 'unreachable',
                lastError: 'connection refused',
                lastOkAt: null,
                consecutiveFailures: 7,
              }),
              entry({}),
            ],
          }),
      ],
    });
    renderApp('/admin');
    const grace = await screen.findByRole('listitem', { name: 'Link of Grace' });
    expect(within(grace).getByText('Unreachable')).toBeTruthy();
    expect(within(grace).getByText(/connection refused · 7 failed checks since Nov 23, 2026/)).toBeTruthy();
    expect(within(grace).getByText(/never OK/)).toBeTruthy();
    const ada = screen.getByRole('listitem', { name: 'Link of Ada' });
    expect(within(ada).getByRole('link', { name: 'https://ada.example/' }).getAttribute('href')).toBe('https://ada.example/');
    expect(screen.getByTestId('link-health-unreachable-count').textContent).toBe('1');
    expect(screen.getByTestId('link-health-failing-count').textContent).toBe('1');
    expect(gateway.countOf('GET /api/admin/link-health?status=failing')).toBe(1);
  });

  it('says so when every checked link works', async () => {
    fakeGateway({ 'GET /api/admin/me': [signedIn], 'GET /api/admin/link-health?status=failing': [() => jsonResponse({ links: [] })] });
    renderApp('/admin');
    expect(await screen.findByText('Every checked link works')).toBeTruthy();
  });
});
