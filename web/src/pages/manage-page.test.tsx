import type { ManagePage } from '@pixel-atlas/contracts/manage';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../test/fake-gateway.ts';
import { ADA_PLOT_ID, adaPlot } from '../test/plot-fixture.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';

const PLOT_ID = ADA_PLOT_ID;
const TOKEN = 'Qm9yaXMgS2FybG9mZiBwbGF5ZWQgdGhlIG1vbnN0ZXIu_-x';
const plot = adaPlot;
const days = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  views: i === 29 ? 7 : 1,
  profileOpens: 2,
  clicks: i === 29 ? 3 : 0,
  badgeViews: i === 29 ? 4 : 1,
}));
const page: ManagePage = {
  plot: { ...plot, visible: true },
  pendingEdit: null,
  stats: { days },
  linkHealth: { status: 'failing', lastOkAt: '2026-11-20T08:00:00.000Z', lastCheckedAt: '2026-11-24T08:00:00.000Z', lastError: 'HTTP 503' },
};
const manageRoute = `/api/manage/${TOKEN}`;

describe('/manage/{token}', () => {
  it("shows the owner's plot, 30 days of counts, the link's health plainly, and marks the page private", async () => {
    fakeGateway({ [`GET ${manageRoute}`]: [() => jsonResponse(page)] });
    renderApp(`/manage/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: "Manage Ada Pixel's Plot" })).toBeTruthy();
    expect(screen.getByTestId('stats-totals').textContent).toBe(
      'Last 30 days: 36 page views, 60 profile opens on the map, 3 visits to your link, 33 badge views.',
    );
    expect(screen.getByRole('img', { name: /Daily page views/ })).toBeTruthy();
    expect(screen.getByTestId('link-health').textContent).toMatch(/^We could not reach your link since .*2026 \(HTTP 503\)/);
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex, nofollow');
    expect(document.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe('no-referrer');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').value).toBe('Pixel art every day');
  });

  it('saves a new message and link, and says so when they wait for review', async () => {
    const gateway = fakeGateway({
      [`GET ${manageRoute}`]: [() => jsonResponse(page)],
      [`PATCH ${manageRoute}`]: [
        () => jsonResponse({ plot, status: 'under_review', warning: 'Your changes are waiting for a quick review by our team.' }),
      ],
    });
    renderApp(`/manage/${TOKEN}`);
    const message = await screen.findByLabelText<HTMLTextAreaElement>('Message');
    await userEvent.clear(message);
    await userEvent.type(message, 'I hate Mondays');
    const link = screen.getByLabelText('Link (optional)');
    await userEvent.clear(link);
    await userEvent.type(link, 'not a link');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please enter a valid http or https URL')).toBeTruthy();
    expect(gateway.countOf(`PATCH ${manageRoute}`)).toBe(0);
    await userEvent.clear(link);
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Changes Under Review')).toBeTruthy();
    expect(gateway.calls.find((call) => call.route === `PATCH ${manageRoute}`)?.body).toEqual({ message: 'I hate Mondays', link: '' });
  });

  it('offers an embeddable badge linking to the plot page, with its HTML to copy', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { clipboard: { writeText } }));
    fakeGateway({ [`GET ${manageRoute}`]: [() => jsonResponse(page)] });
    renderApp(`/manage/${TOKEN}`);
    const section = await screen.findByRole('region', { name: 'Embed a badge' });
    const badge = within(section).getByRole('img', { name: 'Find me on Pixel Atlas' });
    expect(badge.getAttribute('src')).toBe(`/badge/${PLOT_ID}.svg`);
    const origin = window.location.origin;
    const snippet =
      `<a href="${origin}/plot/${PLOT_ID}"><img src="${origin}/badge/${PLOT_ID}.svg" alt="Find me on Pixel Atlas" ` +
      'width="200" height="40"></a>';
    expect(within(section).getByLabelText<HTMLTextAreaElement>('HTML to paste').value).toBe(snippet);
    await userEvent.click(within(section).getByRole('button', { name: 'Copy Code' }));
    expect(writeText).toHaveBeenCalledWith(snippet);
    expect(await within(section).findByRole('button', { name: 'Copied!' })).toBeTruthy();
  });

  it('a wrong or replaced token gets the plain refusal', async () => {
    fakeGateway({
      [`GET ${manageRoute}`]: [
        () =>
          jsonResponse(
            { error: { code: 'NOT_FOUND', message: 'This owner link is not valid. It may have been replaced by a newer one.' } },
            { status: 404 },
          ),
      ],
    });
    renderApp(`/manage/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Link Not Valid' })).toBeTruthy();
    expect(screen.getByText('This owner link is not valid. It may have been replaced by a newer one.')).toBeTruthy();
  });
});

describe('counting on the plot page', () => {
  it("counts one view, and a click on the buyer's link with a beacon while the href stays the buyer's URL", async () => {
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { sendBeacon }));
    fakeGateway({ [`GET /api/plots/${PLOT_ID}`]: [() => jsonResponse(plot)] });
    renderApp(`/plot/${PLOT_ID}`);
    const visit = await screen.findByRole('link', { name: 'Visit Website' });
    await waitFor(() => expect(sendBeacon).toHaveBeenCalledTimes(1));
    expect(sendBeacon).toHaveBeenCalledWith('/api/plot-stats', JSON.stringify({ plotId: PLOT_ID, kind: 'view' }));
    fireEvent.click(visit);
    expect(sendBeacon).toHaveBeenLastCalledWith('/api/plot-stats', JSON.stringify({ plotId: PLOT_ID, kind: 'click' }));
    expect(sendBeacon).toHaveBeenCalledTimes(2);
    expect(visit.getAttribute('href')).toBe('https://ada.example/');
  });
});
