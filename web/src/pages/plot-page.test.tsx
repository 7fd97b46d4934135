import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR_SRC } from '../features/plots/plot-avatar.tsx';
import { fakeGateway } from '../test/fake-gateway.ts';
import { ADA_PLOT_ID, adaPlot, plotWith } from '../test/plot-fixture.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';

const PLOT_ID = ADA_PLOT_ID;
const plot = adaPlot;
const route = `GET /api/plots/${PLOT_ID}`;

describe('/plot/{id}', () => {
  it('shows the plot with its title, description, coordinates, tier and zone, avatar, message and actions', async () => {
    fakeGateway({ [route]: [() => jsonResponse(plot)] });
    renderApp(`/plot/${PLOT_ID}`);

    expect(await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" })).toBeTruthy();
    expect(document.title).toBe("Ada Pixel's Plot - Pixel Atlas");
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Pixel art every day');
    expect(screen.getByText('Coordinates (12, 34)')).toBeTruthy();
    expect(screen.getByText(/Featured Plot in Creator Coast/)).toBeTruthy();
    // Its region's page in the directory.
    const profile = screen.getByRole('article', { name: "Ada Pixel's Plot" });
    expect(within(profile).getByRole('link', { name: 'Creator Coast' }).getAttribute('href')).toBe('/regions/creator-coast');
    expect(screen.getByText('Pixel art every day')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Back/ })).toBeTruthy();

    const visit = screen.getByRole('link', { name: 'Visit Website' });
    expect(visit.getAttribute('href')).toBe('https://ada.example/');
    expect(visit.getAttribute('target')).toBe('_blank');
    expect(visit.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('button', { name: 'Share Plot' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Explore The Atlas' }).getAttribute('href')).toBe('/');

    const avatar = screen.getByAltText<HTMLImageElement>("Ada Pixel's avatar");
    expect(avatar.getAttribute('src')).toBe(plot.avatar_url);
    fireEvent.error(avatar);
    expect(avatar.getAttribute('src')).toBe(DEFAULT_AVATAR_SRC);
  });

  it('keeps the footer below the first screen while loading and once shown: skeleton and profile fill a min-h-dvh frame', async () => {
    let answer!: (response: Response) => void;
    fakeGateway({ [route]: [() => new Promise<Response>((resolve) => (answer = resolve))] });
    renderApp(`/plot/${PLOT_ID}`);

    // Inside <main>: the layout's own min-h-dvh column would match anywhere on the page.
    const skeleton = await screen.findByRole('status', { name: 'Loading plot' });
    const skeletonFrame = skeleton.closest('main .min-h-dvh');
    expect(skeletonFrame).not.toBeNull();
    // The skeleton keeps the profile's layout: the panel and the 112 px avatar where the profile puts them.
    expect(skeleton.className).toContain('pixel-panel mt-4');
    expect(skeleton.querySelector('.size-28')).not.toBeNull();

    // The map preview's box is reserved below the panel before the plot (and the preview's chunk) arrive.
    const reserved = skeletonFrame!.lastElementChild as HTMLElement;
    expect(reserved.className).toContain('h-44');

    answer(jsonResponse(plot));
    const heading = await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" });
    expect(heading.closest('main .min-h-dvh')?.className).toBe(skeletonFrame?.className);
    // The preview of the plot and its neighbours takes that same box.
    const preview = await screen.findByRole('img', { name: /^Map of Ada Pixel's plot at \(12, 34\)/ });
    expect(preview.className).toBe(reserved.className);
    expect(preview.dataset.pin).toBe('12,34');
  });

  it('describes a plot without a message by tier and coordinates, and hides Visit Website without a link', async () => {
    fakeGateway({ [route]: [() => jsonResponse({ ...plot, message: '', link: null, region_name: null })] });
    renderApp(`/plot/${PLOT_ID}`);
    await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" });
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      'A Featured plot at coordinates (12, 34) on Pixel Atlas.',
    );
    expect(screen.queryByRole('link', { name: 'Visit Website' })).toBeNull();
  });

  it("shows 'Plot Not Found' for an unknown or removed plot", async () => {
    fakeGateway({ [route]: [() => jsonResponse({ error: { code: 'PLOT_NOT_FOUND', message: 'Plot not found' } }, { status: 404 })] });
    renderApp(`/plot/${PLOT_ID}`);
    expect(await screen.findByRole('heading', { name: 'Plot Not Found' })).toBeTruthy();
    expect(screen.getByText("The plot you're looking for doesn't exist or has been removed.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Atlas' }).getAttribute('href')).toBe('/');
  });

  it('offers a retry when the plot cannot be loaded for another reason', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({ [route]: [() => new Response('', { status: 502 }), () => jsonResponse(plot)] });
    renderApp(`/plot/${PLOT_ID}`);
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" })).toBeTruthy();
    expect(gateway.countOf(route)).toBe(2);
  });

  it('links up to six neighbours on the map to their pages, and a plot without a region to the Uncharted Lands', async () => {
    const neighbours = Array.from({ length: 6 }, (_, index) =>
      plotWith({
        id: `22222222-2222-4222-8222-22222222222${index}`,
        display_name: `Neighbour ${index + 1}`,
        x: 13 + index,
        y: 34,
        tier: index === 0 ? 'premium' : 'basic',
      }),
    );
    fakeGateway({
      [route]: [() => jsonResponse({ ...plot, region_name: null })],
      [`GET /api/plots/${PLOT_ID}/neighbours`]: [() => jsonResponse({ plots: neighbours })],
    });
    renderApp(`/plot/${PLOT_ID}`);

    const section = await screen.findByRole('region', { name: 'Neighbours' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(
      neighbours.map((neighbour) => [neighbour.display_name, `/plot/${neighbour.id}`]),
    );
    expect(within(section).getByText('(13, 34)')).toBeTruthy();
    expect(within(section).getByText('Premium Plot')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Uncharted Lands' }).getAttribute('href')).toBe('/regions/uncharted');
  });

  it('shows no Neighbours section for a plot standing alone, or when they cannot be loaded', async () => {
    const gateway = fakeGateway({
      [route]: [() => jsonResponse(plot)],
      [`GET /api/plots/${PLOT_ID}/neighbours`]: [() => jsonResponse({ plots: [] })],
    });
    renderApp(`/plot/${PLOT_ID}`);
    await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" });
    await waitFor(() => expect(gateway.countOf(`GET /api/plots/${PLOT_ID}/neighbours`)).toBe(1));
    expect(screen.queryByRole('region', { name: 'Neighbours' })).toBeNull();
  });

  it('describes itself to search engines: a CreativeWork by its owner, whose site is the buyer’s link', async () => {
    fakeGateway({ [route]: [() => jsonResponse(plot)] });
    renderApp(`/plot/${PLOT_ID}`);
    await screen.findByRole('heading', { level: 1, name: "Ada Pixel's Plot" });
    const json = document.querySelector('main script[type="application/ld+json"]')?.textContent ?? '';
    expect(JSON.parse(json)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'CreativeWork',
      name: "Ada Pixel's Plot",
      url: `${window.location.origin}/plot/${PLOT_ID}`,
      author: { '@type': 'Person', name: 'Ada Pixel', sameAs: ['https://ada.example/'] },
      contentLocation: { '@type': 'Place', name: 'Creator Coast' },
    });
  });
});
