import type { FlaggedPlot } from '@pixel-atlas/contracts/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PLOTS_QUERY_KEY } from '../../api/queries.ts';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../../test/render-app.tsx';
import { deferred } from '../../test/render-with-providers.tsx';

const signedIn = () => jsonResponse({ username: 'warden' });
const noMap = () => jsonResponse({ error: { code: 'MAP_NOT_AVAILABLE', message: 'No map' } }, { status: 404 });
const first: FlaggedPlot = {
  id: '11111111-1111-4111-8111-111111111111',
  display_name: 'Damn Fine Pixels',
  zone: 'meme',
  tier: 'prime',
  x: 12,
  y: 13,
  message: 'Hate mondays',
  link: 'https://pixels.example/',
  created_at: '2026-11-21T09:30:00.000Z',
  flag_count: 3,
  reasons: ['screened words: damn, hate', 'visitor flag'],
  source: 'both',
};
const second: FlaggedPlot = {
  ...first,
  id: '22222222-2222-4222-8222-222222222222',
  display_name: 'Quiet Corner',
  flag_count: 1,
  reasons: ['visitor flag'],
  source: 'visitor',
  link: null,
};

describe('admin Content Moderation', () => {
  it('comes first, with a pending-count badge and every detail of each flagged plot', async () => {
    fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap],
      'GET /api/admin/flagged-plots': [() => jsonResponse([first, second])],
    });
    renderApp('/admin');
    const section = await screen.findByTestId('admin-moderation');
    expect(document.querySelector('[data-testid^="admin-"]')).toBe(section);
    expect(within(section).getByRole('heading', { name: 'Content Moderation' })).toBeTruthy();
    expect((await within(section).findByTestId('moderation-pending-count')).textContent).toBe('2');

    const card = within(section).getByRole('article', { name: 'Flagged plot Damn Fine Pixels' });
    expect(within(card).getByText('Meme Marshlands')).toBeTruthy();
    expect(within(card).getByText('Prime Plot')).toBeTruthy();
    expect(within(card).getByText('(12, 13)')).toBeTruthy();
    expect(within(card).getByText('Hate mondays')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'https://pixels.example/' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(within(card).getByText(new Date(first.created_at).toLocaleString())).toBeTruthy();
    expect(within(card).getByText(/3 flags/)).toBeTruthy();
    expect(within(card).getByText('screened words: damn, hate')).toBeTruthy();
    expect(within(card).getByText('visitor flag')).toBeTruthy();
  });

  it("shows 'No content pending review' when the queue is empty", async () => {
    fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap],
      'GET /api/admin/flagged-plots': [() => jsonResponse([])],
    });
    renderApp('/admin');
    expect(await screen.findByText('No content pending review')).toBeTruthy();
    expect(screen.getByTestId('moderation-pending-count').textContent).toBe('0');
  });

  it.each(['approve', 'reject'] as const)(
    '%s disables Approve and Reject everywhere while it runs, then refreshes both lists',
    async (decision) => {
      const user = userEvent.setup();
      const answer = deferred<Response>();
      const gateway = fakeGateway({
        'GET /api/admin/me': [signedIn],
        'GET /api/map-layout': [noMap],
        'GET /api/admin/flagged-plots': [() => jsonResponse([first, second]), () => jsonResponse([second])],
        [`POST /api/admin/${decision}-plot`]: [() => answer.promise],
      });
      const { queryClient } = renderApp('/admin');
      queryClient.setQueryData(PLOTS_QUERY_KEY, []);
      const card = await screen.findByRole('article', { name: 'Flagged plot Damn Fine Pixels' });
      await user.click(within(card).getByRole('button', { name: decision === 'approve' ? 'Approve' : 'Reject' }));
      if (decision === 'reject') {
        // Reject asks once; nothing is sent before the answer.
        const ask = await screen.findByRole('alertdialog', { name: 'Reject This Plot?' });
        expect(within(ask).getByText(/removed from the map without a refund/)).toBeTruthy();
        expect(gateway.countOf('POST /api/admin/reject-plot')).toBe(0);
        await user.click(within(ask).getByRole('button', { name: 'Reject' }));
      }

      const buttons = within(screen.getByTestId('admin-moderation')).getAllByRole('button');
      expect(buttons.length).toBe(4);
      expect(buttons.every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
      expect(within(card).getByText(decision === 'approve' ? 'Approving...' : 'Rejecting...')).toBeTruthy();
      expect(gateway.calls.find((call) => call.route === `POST /api/admin/${decision}-plot`)?.body).toEqual({ plotId: first.id });

      answer.resolve(jsonResponse({ plotId: first.id, decision: `${decision}d`, decidedAt: '2026-11-22T10:00:00.000Z' }));
      await waitFor(() => expect(screen.queryByRole('article', { name: 'Flagged plot Damn Fine Pixels' })).toBeNull());
      expect(screen.getByTestId('moderation-pending-count').textContent).toBe('1');
      expect(gateway.countOf('GET /api/admin/flagged-plots')).toBe(2);
      expect(queryClient.getQueryState(PLOTS_QUERY_KEY)?.isInvalidated).toBe(true);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Approve' }).disabled).toBe(false);
      // And says what happened.
      expect(await screen.findByText(decision === 'approve' ? 'Plot Approved' : 'Plot Rejected')).toBeTruthy();
    },
  );

  it('Reject asks first: Cancel sends nothing and keeps the plot in the queue', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap],
      'GET /api/admin/flagged-plots': [() => jsonResponse([first])],
    });
    renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Reject This Plot?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(gateway.countOf('POST /api/admin/reject-plot')).toBe(0);
    expect(screen.getByRole('article', { name: 'Flagged plot Damn Fine Pixels' })).toBeTruthy();
  });

  it('tells the admin when a decision fails and refreshes the queue anyway', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [signedIn],
      'GET /api/map-layout': [noMap],
      'GET /api/admin/flagged-plots': [() => jsonResponse([first])],
      'POST /api/admin/approve-plot': [
        () => jsonResponse({ error: { code: 'ALREADY_DECIDED', message: 'Another admin already decided this plot.' } }, { status: 409 }),
      ],
    });
    renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Another admin already decided this plot.')).toBeTruthy();
    await waitFor(() => expect(gateway.countOf('GET /api/admin/flagged-plots')).toBe(2));
  });
});
