import type { Plot } from '@pixel-atlas/contracts/plots';
import { PLOT_CHANGE_POLICY } from '@pixel-atlas/contracts/policy';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PLOTS_QUERY_KEY } from '../api/queries.ts';
import { cropAvatar } from '../features/claim/avatar-image.ts';
import { celebrate } from '../features/claim/celebration.ts';
import type { PendingClaim } from '../features/claim/pending-claim.ts';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';
import { deferred, pngFile } from '../test/render-with-providers.tsx';

vi.mock('../features/claim/avatar-image.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/claim/avatar-image.ts')>()),
  cropAvatar: vi.fn(async () => 'data:image/png;base64,SQUARE'),
}));
// Confetti needs a real canvas; the timings are shortened so the redirect can be watched.
vi.mock('../features/claim/celebration.ts', () => ({
  CONFETTI_PIECES: 50,
  CELEBRATION_MS: 200,
  REDIRECT_AFTER_MS: 300,
  celebrate: vi.fn(() => () => {}),
}));

const SESSION = 'cs_test_abc';
const VERIFY = `GET /api/verify-session/${SESSION}`;
const PLOT_ID = '0b9f3a52-6c1e-4d7e-9a55-2d3c4b5a6f70';
const plot: Plot = {
  id: PLOT_ID,
  zone: 'nexus',
  tier: 'prime',
  x: 20,
  y: 25,
  display_name: 'Ada Pixel',
  message: 'Pixel art every day',
  link: 'https://ada.example/',
  avatar_url: `/api/plots/${PLOT_ID}/avatar`,
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: false,
};
const pending: PendingClaim = {
  x: 20,
  y: 25,
  display_name: 'Ada Pixel',
  message: 'Pixel art every day',
  link: 'https://ada.example/',
  tier: 'prime',
  avatar_url: 'data:image/png;base64,POPUP',
};
const verified = () => jsonResponse({ verified: true, tier: 'prime', sessionId: SESSION, x: 20, y: 25, used: false, plotId: null });
const created = (warning?: string) => () => jsonResponse(warning ? { plot, warning } : { plot }, { status: 201 });
const errorBody = (status: number, code: string, message: string) => () => jsonResponse({ error: { code, message } }, { status });

const claimPath = `/claim?session_id=${SESSION}`;

describe('/claim without a session', () => {
  it("shows 'Missing Session ID' with a way home", () => {
    renderApp('/claim');
    expect(document.title).toBe('Claim Your Plot - Pixel Atlas');
    expect(screen.getByRole('heading', { name: 'Missing Session ID' })).toBeTruthy();
    expect(screen.getByText("We couldn't find your payment session ID.")).toBeTruthy();
    expect(
      screen.getByText('You need to complete a payment first before claiming a plot. Please return to the homepage and select a tier.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Homepage' }).getAttribute('href')).toBe('/');
  });
});

describe('/claim verification', () => {
  it("shows 'Verifying Payment...' with skeletons while the session is checked", async () => {
    const answer = deferred<Response>();
    fakeGateway({ [VERIFY]: [() => answer.promise] });
    renderApp(claimPath);
    expect(await screen.findByText('Verifying Payment...')).toBeTruthy();
    expect(document.querySelector('[aria-busy="true"] .animate-pulse')).toBeTruthy();
    answer.resolve(verified());
    expect(await screen.findByRole('heading', { name: 'Payment Successful! Claim Your Plot' })).toBeTruthy();
  });

  it("shows 'Payment Verification Failed' with the server's message", async () => {
    fakeGateway({ [VERIFY]: [errorBody(502, 'UPSTREAM_UNAVAILABLE', 'The payment provider did not answer.')] });
    renderApp(claimPath);
    expect(await screen.findByRole('heading', { name: 'Payment Verification Failed' })).toBeTruthy();
    expect(screen.getByText("We couldn't verify your payment session.")).toBeTruthy();
    expect(screen.getByText('The payment provider did not answer.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Homepage' })).toBeTruthy();
  });

  it.each([
    ['an error without a message', () => new Response('', { status: 500 })],
    ['an unpaid session', () => jsonResponse({ verified: false, tier: 'basic', sessionId: SESSION })],
  ])('falls back to the expired-session text for %s', async (_, answer) => {
    fakeGateway({ [VERIFY]: [answer] });
    renderApp(claimPath);
    expect(await screen.findByText('Your payment session is invalid or has expired.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Payment Verification Failed' })).toBeTruthy();
  });
});

describe('/claim auto-claim of a pending claim', () => {
  beforeEach(() => {
    vi.mocked(celebrate).mockClear();
  });

  it('submits it exactly once under StrictMode (zone nexus, the paid tier), celebrates, then opens the plot page', async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify({ ...pending, tier: 'basic', notification_email: 'ada@example.com' }));
    const answer = deferred<Response>();
    const gateway = fakeGateway({
      [VERIFY]: [verified],
      'POST /api/claim-plot': [() => answer.promise],
      [`GET /api/plots/${PLOT_ID}`]: [() => jsonResponse(plot)],
    });
    const { queryClient } = renderApp(claimPath);
    queryClient.setQueryData(PLOTS_QUERY_KEY, []);

    expect(await screen.findByText('Creating Your Plot...')).toBeTruthy();
    answer.resolve(created()());

    expect(await screen.findByRole('heading', { name: 'Plot Claimed!' })).toBeTruthy();
    expect(screen.getByText('Your Prime plot is now yours!')).toBeTruthy();
    // The way on is a button too, not only the timed redirect.
    expect(screen.getByRole('link', { name: 'View Your Plot' }).getAttribute('href')).toBe(`/plot/${PLOT_ID}`);
    expect(gateway.countOf('POST /api/claim-plot')).toBe(1);
    expect(gateway.calls.find((call) => call.route === 'POST /api/claim-plot')?.body).toEqual({
      display_name: 'Ada Pixel',
      message: 'Pixel art every day',
      link: 'https://ada.example/',
      zone: 'nexus',
      x: 20,
      y: 25,
      stripeSessionId: SESSION,
      tier: 'prime',
      avatar_url: 'data:image/png;base64,POPUP',
      notification_email: 'ada@example.com',
    });
    expect(vi.mocked(celebrate)).toHaveBeenCalled();
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
    expect(queryClient.getQueryState(PLOTS_QUERY_KEY)?.isInvalidated).toBe(true);

    expect(await screen.findByRole('heading', { name: "Ada Pixel's Plot" })).toBeTruthy();
    expect(gateway.countOf('POST /api/claim-plot')).toBe(1);
  });

  it("shows the server's warning as 'Plot Created - Under Review' and explains the hidden plot after the redirect", async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    fakeGateway({
      [VERIFY]: [verified],
      'POST /api/claim-plot': [created('Your plot will be visible once a moderator has reviewed it.')],
      [`GET /api/plots/${PLOT_ID}`]: [errorBody(404, 'PLOT_NOT_FOUND', 'Plot not found')],
    });
    renderApp(claimPath);
    expect(await screen.findByText('Plot Created - Under Review')).toBeTruthy();
    expect(screen.getByText('Your plot will be visible once a moderator has reviewed it.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Plot Claimed!' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Plot Under Review' })).toBeTruthy();
  });

  it('drops to the form when the tile was taken meanwhile, keeping the details and asking for another spot', async () => {
    const user = userEvent.setup();
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    const gateway = fakeGateway({
      [VERIFY]: [verified],
      'POST /api/claim-plot': [errorBody(409, 'TILE_UNAVAILABLE', 'That spot was claimed a moment ago.'), created()],
      'GET /api/position-available?x=40&y=41&tier=prime': [() => jsonResponse({ available: true })],
    });
    renderApp(claimPath);

    expect(await screen.findByText('Tile Unavailable')).toBeTruthy();
    expect(screen.getByText('This tile is already claimed. Please choose another.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Payment Successful! Claim Your Plot' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Display name').value).toBe('Ada Pixel');
    expect(screen.getByLabelText<HTMLInputElement>('X').value).toBe('');
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();

    await user.type(screen.getByLabelText('X'), '40');
    await user.type(screen.getByLabelText('Y'), '41');
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    await user.click(await screen.findByRole('button', { name: 'CONFIRM & CLAIM' }));

    expect(await screen.findByRole('heading', { name: 'Plot Claimed!' })).toBeTruthy();
    expect(gateway.countOf('POST /api/claim-plot')).toBe(2);
    expect(gateway.calls.filter((call) => call.route === 'POST /api/claim-plot')[1]?.body).toMatchObject({
      x: 40,
      y: 41,
      stripeSessionId: SESSION,
      avatar_url: 'data:image/png;base64,POPUP',
    });
  });

  it("shows 'Error' with the server's message when the auto-claim fails, then the form", async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    fakeGateway({ [VERIFY]: [verified], 'POST /api/claim-plot': [errorBody(402, 'PAYMENT_REQUIRED', 'The payment has not completed.')] });
    renderApp(claimPath);
    expect(await screen.findByText('The payment has not completed.')).toBeTruthy();
    expect(screen.getByText('Error').closest('[data-variant]')?.getAttribute('data-variant')).toBe('destructive');
    expect(await screen.findByRole('heading', { name: 'Payment Successful! Claim Your Plot' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('X').value).toBe('20');
  });

  it("falls back to 'Failed to create plot. Please try again.' without a server message", async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    fakeGateway({ [VERIFY]: [verified], 'POST /api/claim-plot': [() => new Response('', { status: 500 })] });
    renderApp(claimPath);
    expect(await screen.findByText('Failed to create plot. Please try again.')).toBeTruthy();
  });
});

describe('/claim form', () => {
  async function fillForm(user: UserEvent, { name = 'Grace Tiles', message = 'Hello atlas' } = {}) {
    await user.type(await screen.findByLabelText('Display name'), name);
    await user.type(screen.getByLabelText('Message'), message);
    await user.type(screen.getByLabelText('Link (optional)'), 'https://grace.example');
    await user.upload(screen.getByLabelText('Avatar image file'), pngFile());
    await user.click(await screen.findByRole('button', { name: 'Save Avatar' }));
    await screen.findByText('Avatar Saved');
    await user.click(screen.getByRole('radio', { name: 'Creator Coast' }));
    await user.clear(screen.getByLabelText('X'));
    await user.type(screen.getByLabelText('X'), '30');
    await user.clear(screen.getByLabelText('Y'));
    await user.type(screen.getByLabelText('Y'), '31');
  }

  it('offers the four zones with nexus chosen, and a message counter red above 130', async () => {
    const user = userEvent.setup();
    fakeGateway({ [VERIFY]: [verified] });
    renderApp(claimPath);
    expect(await screen.findByText('Complete the form below to finalize your Prime plot')).toBeTruthy();
    const zones = within(screen.getByRole('radiogroup', { name: 'Zone' })).getAllByRole('radio');
    expect(zones.map((zone) => document.querySelector(`label[for="${zone.id}"]`)?.textContent)).toEqual([
      'Central Nexus',
      'Startup Steppes',
      'Creator Coast',
      'Meme Marshlands',
    ]);
    expect(screen.getByRole('radio', { name: 'Central Nexus' }).getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByLabelText('Message'));
    await user.paste('m'.repeat(131));
    expect(screen.getByText('131/140').getAttribute('data-warning')).toBe('true');
  });

  it("asks for a position ('Missing Tile Selection') and a saved avatar ('Missing Avatar') before the review", async () => {
    const user = userEvent.setup();
    fakeGateway({ [VERIFY]: [verified] });
    renderApp(claimPath);
    await user.type(await screen.findByLabelText('Display name'), 'Grace Tiles');
    await user.clear(screen.getByLabelText('X'));
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    expect(await screen.findByText('Missing Tile Selection')).toBeTruthy();
    await user.clear(screen.getByLabelText('X'));
    await user.type(screen.getByLabelText('X'), '30');
    await user.clear(screen.getByLabelText('Y'));
    await user.type(screen.getByLabelText('Y'), '31');
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    expect(await screen.findByText('Missing Avatar')).toBeTruthy();
    expect(screen.queryByText('Confirm your plot details')).toBeNull();
  });

  it('reviews the details (EDIT DETAILS goes back), then claims with CLAIMING... on the button', async () => {
    const user = userEvent.setup();
    const answer = deferred<Response>();
    const gateway = fakeGateway({
      [VERIFY]: [verified],
      'GET /api/position-available?x=30&y=31&tier=prime': [() => jsonResponse({ available: true })],
      'POST /api/claim-plot': [() => answer.promise],
    });
    renderApp(claimPath);
    await fillForm(user);
    expect(vi.mocked(cropAvatar)).toHaveBeenLastCalledWith(expect.any(String), null, 'square');

    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    const review = await screen.findByRole('region', { name: 'Confirm your plot details' });
    expect(within(review).getByText('(30, 31)')).toBeTruthy();
    expect(within(review).getByText('Creator Coast')).toBeTruthy();
    // The one policy sentence: what is final, and what the owner can change later.
    expect(within(review).getByTestId('plot-policy').textContent).toBe(`${PLOT_CHANGE_POLICY} Please check everything before you confirm.`);

    await user.click(within(review).getByRole('button', { name: 'EDIT DETAILS' }));
    expect(screen.getByLabelText<HTMLInputElement>('Display name').value).toBe('Grace Tiles');
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    await user.click(await screen.findByRole('button', { name: 'CONFIRM & CLAIM' }));

    const claiming = await screen.findByRole('button', { name: 'CLAIMING...' });
    expect((claiming as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'EDIT DETAILS' }).disabled).toBe(true);
    answer.resolve(created()());
    expect(await screen.findByRole('heading', { name: 'Plot Claimed!' })).toBeTruthy();
    expect(gateway.calls.find((call) => call.route === 'POST /api/claim-plot')?.body).toEqual({
      display_name: 'Grace Tiles',
      message: 'Hello atlas',
      link: 'https://grace.example',
      zone: 'creator',
      x: 30,
      y: 31,
      stripeSessionId: SESSION,
      tier: 'prime',
      avatar_url: 'data:image/png;base64,SQUARE',
    });
  });

  it("shows 'Error' with the fallback when the claim fails and stays on the review", async () => {
    const user = userEvent.setup();
    fakeGateway({
      [VERIFY]: [verified],
      'GET /api/position-available?x=30&y=31&tier=prime': [() => jsonResponse({ available: false, reason: 'held' })],
      'POST /api/claim-plot': [() => new Response('', { status: 500 })],
    });
    renderApp(claimPath);
    await fillForm(user);
    // 'held' is the buyer's own checkout hold: allowed through to the server.
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    await user.click(await screen.findByRole('button', { name: 'CONFIRM & CLAIM' }));
    expect(await screen.findByText('Failed to claim plot. Please try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'CONFIRM & CLAIM' })).toBeTruthy();
  });

  it("asks 'Content Under Review' for a listed word and sends the address as notification_email", async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      [VERIFY]: [verified],
      'GET /api/position-available?x=30&y=31&tier=prime': [() => jsonResponse({ available: true })],
      'POST /api/claim-plot': [created('Your plot is waiting for review.')],
    });
    renderApp(claimPath);
    await fillForm(user, { name: 'Drug Free Art', message: 'Hi' });
    await user.click(screen.getByRole('button', { name: 'REVIEW DETAILS' }));
    await user.click(await screen.findByRole('button', { name: 'CONFIRM & CLAIM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Content Under Review' });
    expect(gateway.countOf('POST /api/claim-plot')).toBe(0);
    await user.type(within(dialog).getByLabelText(/Email/), 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create Plot' }));
    expect(await screen.findByText('Plot Created - Under Review')).toBeTruthy();
    await waitFor(() => expect(gateway.countOf('POST /api/claim-plot')).toBe(1));
    expect(gateway.calls.find((call) => call.route === 'POST /api/claim-plot')?.body).toMatchObject({
      display_name: 'Drug Free Art',
      notification_email: 'grace@example.com',
    });
  });
});

describe('/claim beyond this browser', () => {
  it('fills X and Y with the position the server holds for the payment when this browser has no pending claim', async () => {
    fakeGateway({
      [VERIFY]: [() => jsonResponse({ verified: true, tier: 'prime', sessionId: SESSION, x: 41, y: 17, used: false, plotId: null })],
    });
    renderApp(claimPath);
    expect(await screen.findByRole('heading', { name: 'Payment Successful! Claim Your Plot' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('X').value).toBe('41');
    expect(screen.getByLabelText<HTMLInputElement>('Y').value).toBe('17');
    // And shows the spot on a small map (its chunk loads lazily).
    const preview = await screen.findByRole('img', { name: "Map: your plot's position at (41, 17)" });
    expect(preview.dataset.pin).toBe('41,17');
  });

  it('a session that already bought a plot says so, links the plot, offers no form, and drops a leftover pending claim', async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    const gateway = fakeGateway({
      [VERIFY]: [() => jsonResponse({ verified: true, tier: 'prime', sessionId: SESSION, x: 20, y: 25, used: true, plotId: PLOT_ID })],
      [`GET /api/plots/${PLOT_ID}`]: [() => jsonResponse(plot)],
    });
    renderApp(claimPath);
    expect(await screen.findByText('This payment already claimed Ada Pixel')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Plot Already Claimed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: "View Ada Pixel's Plot" }).getAttribute('href')).toBe(`/plot/${PLOT_ID}`);
    expect(screen.queryByText('Payment Successful! Claim Your Plot')).toBeNull();
    expect(screen.queryByLabelText('Display name')).toBeNull();
    expect(gateway.countOf('POST /api/claim-plot')).toBe(0);
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
  });

  it('Back to /claim after the claim shows the used session, not the form again (no stale verification)', async () => {
    sessionStorage.setItem('pendingClaim', JSON.stringify(pending));
    const gateway = fakeGateway({
      [VERIFY]: [verified],
      'POST /api/claim-plot': [created()],
      [`GET /api/plots/${PLOT_ID}`]: [() => jsonResponse(plot)],
    });
    const { router, queryClient } = renderApp(claimPath);
    queryClient.setQueryData(PLOTS_QUERY_KEY, []);
    expect(await screen.findByRole('heading', { name: 'Plot Claimed!' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/plot/${PLOT_ID}`), { timeout: 5000 });
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe(`?session_id=${SESSION}`);
    expect(await screen.findByText('This payment already claimed Ada Pixel')).toBeTruthy();
    expect(screen.queryByText('Payment Successful! Claim Your Plot')).toBeNull();
    expect(gateway.countOf('POST /api/claim-plot')).toBe(1);
  }, 15_000);

  it('a session plots already saw claimed says so before payments heard of it (another browser, a moment after the claim)', async () => {
    const gateway = fakeGateway({
      // payments has not recorded the used session yet; plots has the plot.
      [VERIFY]: [verified],
      [`GET /api/claim-plot/${SESSION}`]: [
        () => jsonResponse({ sessionId: SESSION, claimed: true, plotId: PLOT_ID, display_name: 'Ada Pixel' }),
      ],
      [`GET /api/plots/${PLOT_ID}`]: [() => jsonResponse(plot)],
    });
    renderApp(claimPath);
    expect(await screen.findByText('This payment already claimed Ada Pixel')).toBeTruthy();
    expect(screen.getByRole('link', { name: "View Ada Pixel's Plot" }).getAttribute('href')).toBe(`/plot/${PLOT_ID}`);
    expect(screen.queryByLabelText('Display name')).toBeNull();
    expect(screen.queryByText('Tile Unavailable')).toBeNull();
    expect(gateway.countOf('POST /api/claim-plot')).toBe(0);
  });

  it("an open checkout not paid yet says so with a way back to finish paying, not 'invalid or has expired'", async () => {
    const user = userEvent.setup();
    fakeGateway({
      [VERIFY]: [
        () =>
          jsonResponse({
            verified: false,
            tier: 'prime',
            sessionId: SESSION,
            x: 20,
            y: 25,
            used: false,
            plotId: null,
            paymentStatus: 'open',
            checkoutUrl: `/api/test-checkout/${SESSION}`,
          }),
        verified,
      ],
      [`GET /api/claim-plot/${SESSION}`]: [() => jsonResponse({ sessionId: SESSION, claimed: false, plotId: null, display_name: null })],
    });
    renderApp(claimPath);
    expect(await screen.findByRole('heading', { name: 'Payment Not Complete' })).toBeTruthy();
    expect(screen.getByText("Your payment hasn't been completed yet.")).toBeTruthy();
    expect(screen.queryByText(/invalid or has expired/)).toBeNull();
    expect(screen.queryByText('Payment Verification Failed')).toBeNull();
    expect(screen.getByRole('link', { name: 'Finish Paying' }).getAttribute('href')).toBe(`/api/test-checkout/${SESSION}`);
    // Paid meanwhile (in another tab): Check Again finds it.
    await user.click(screen.getByRole('button', { name: 'Check Again' }));
    expect(await screen.findByRole('heading', { name: 'Payment Successful! Claim Your Plot' })).toBeTruthy();
  });

  it('a completed checkout whose money has not arrived says it is processing, without a checkout link', async () => {
    fakeGateway({
      [VERIFY]: [
        () =>
          jsonResponse({
            verified: false,
            tier: 'prime',
            sessionId: SESSION,
            x: 20,
            y: 25,
            used: false,
            plotId: null,
            paymentStatus: 'processing',
            checkoutUrl: null,
          }),
      ],
    });
    renderApp(claimPath);
    expect(await screen.findByRole('heading', { name: 'Payment Processing' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Finish Paying' })).toBeNull();
  });

  it('a used session whose plot was removed says so without a link', async () => {
    fakeGateway({
      [VERIFY]: [() => jsonResponse({ verified: true, tier: 'prime', sessionId: SESSION, x: 20, y: 25, used: true, plotId: null })],
    });
    renderApp(claimPath);
    expect(await screen.findByText('This payment already claimed a plot')).toBeTruthy();
    expect(screen.getByText('That plot has since been removed from the map.')).toBeTruthy();
  });
});
