import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_HELD_NOTICE } from '@pixel-atlas/contracts/payments';
import { pricesQuery } from '../../api/queries.ts';
import { browserNavigation } from '../../lib/browser-navigation.ts';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse } from '../../test/render-app.tsx';
import { deferred, pngFile, renderWithProviders } from '../../test/render-with-providers.tsx';
import { cropAvatar } from './avatar-image.ts';
import { CLAIM_TOASTS } from './claim-messages.ts';
import { ClaimPopup } from './claim-popup.tsx';
import { createQueryClient } from '../../lib/query-client.ts';

// jsdom has no 2D canvas: the crop itself is covered in the browser; here it yields a fixed image.
vi.mock('./avatar-image.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./avatar-image.ts')>()),
  cropAvatar: vi.fn(async () => 'data:image/png;base64,SAVED'),
}));

const AVAILABLE = () => jsonResponse({ available: true });
const CHECKOUT_URL = '/api/test-checkout/cs_test_1';

/** What GET /api/prices answered (a configured table, not the defaults); most cases start with it in the cache. */
const SERVED_PRICES = { currency: 'usd', cents: { basic: 3100, featured: 5000, prime: 7500, premium: 20000 } } as const;

function renderPopup(tile: { x: number; y: number } | null = { x: 10, y: 12 }) {
  const onOpenChange = vi.fn();
  const queryClient = createQueryClient();
  queryClient.setQueryData(pricesQuery().queryKey, SERVED_PRICES);
  const result = renderWithProviders(<ClaimPopup tile={tile} open onOpenChange={onOpenChange} />, { queryClient });
  return { ...result, onOpenChange };
}

async function fillProfile(user: UserEvent, { name = 'Ada Pixel', message = 'Pixel art every day', link = '' } = {}) {
  if (name) await user.type(screen.getByLabelText('Display name'), name);
  if (message) await user.type(screen.getByLabelText('Message'), message);
  if (link) await user.type(screen.getByLabelText('Link (optional)'), link);
}

async function saveAvatar(user: UserEvent) {
  await user.upload(screen.getByLabelText('Avatar image file'), pngFile());
  await user.click(await screen.findByRole('button', { name: 'Save Avatar' }));
  expect(await screen.findByText('Your avatar has been saved successfully.')).toBeTruthy();
  expect(screen.getByText('Avatar Saved')).toBeTruthy();
}

const payButton = () => screen.getByRole('button', { name: /^PAY & CLAIM/ });

/** Fills the profile, saves an avatar and presses pay: the way to the checks that run before the checkout. */
async function payWithProfile(user: UserEvent, profile?: Parameters<typeof fillProfile>[1]) {
  await fillProfile(user, profile);
  await saveAvatar(user);
  await user.click(payButton());
}

/** Navigation stubbed, the basic tile at (10, 12) free at every check, and the checkout starting: the content-review cases. */
function startingCheckoutGateway() {
  vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
  return fakeGateway({
    'GET /api/position-available?x=10&y=12&tier=basic': [AVAILABLE],
    'POST /api/create-checkout-session': [() => jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_1' })],
  });
}

/** Each case counts the avatar crops of its own. */
function clearAvatarCrops() {
  vi.mocked(cropAvatar).mockClear();
}

describe('claim popup', () => {
  beforeEach(clearAvatarCrops);

  it("is titled 'Claim This Tile' with the position, the fields, the avatar hint and CANCEL", () => {
    const { onOpenChange } = renderPopup();
    const dialog = screen.getByRole('dialog', { name: 'Claim This Tile' });
    expect(within(dialog).getByText('Position (10, 12)')).toBeTruthy();
    expect(within(dialog).getByLabelText('Link (optional)').getAttribute('placeholder')).toBe('https://');
    expect(within(dialog).getByLabelText('Display name').getAttribute('maxLength')).toBe('30');
    expect(within(dialog).getByText('JPG, PNG or GIF (max 1MB)')).toBeTruthy();
    within(dialog).getByRole('button', { name: 'CANCEL' }).click();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("lists the four tiers with the server's price and size, starts at the stored tier, and prices the pay button", async () => {
    const user = userEvent.setup();
    localStorage.setItem('selectedTier', 'prime');
    renderPopup();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((radio) => document.querySelector(`label[for="${radio.id}"]`)?.textContent)).toEqual([
      'Basic$311x1 plot',
      'Featured$502x2 plot',
      'Prime$753x3 plot',
      'Premium$2004x4 plot',
    ]);
    expect(screen.getByRole('radio', { name: /Prime/ }).getAttribute('aria-checked')).toBe('true');
    expect(payButton().textContent).toBe('PAY & CLAIM ($75)');
    await user.click(screen.getByRole('radio', { name: /Premium/ }));
    expect(payButton().textContent).toBe('PAY & CLAIM ($200)');
  });

  it('names no amount until GET /api/prices answers, then the served one (never the built-in default)', async () => {
    const answer = deferred<Response>();
    fakeGateway({ 'GET /api/prices': [() => answer.promise] });
    renderWithProviders(<ClaimPopup tile={{ x: 10, y: 12 }} open onOpenChange={vi.fn()} />);
    expect(payButton().textContent).toBe('PAY & CLAIM');
    expect(screen.getByRole('radio', { name: /Basic/ }).closest('div')?.textContent).not.toMatch(/\$/);
    answer.resolve(jsonResponse(SERVED_PRICES));
    await waitFor(() => expect(payButton().textContent).toBe('PAY & CLAIM ($31)'));
  });

  it('falls back to basic when the stored tier is not one of the four', () => {
    localStorage.setItem('selectedTier', 'legendary');
    renderPopup();
    expect(screen.getByRole('radio', { name: /Basic/ }).getAttribute('aria-checked')).toBe('true');
    expect(payButton().textContent).toBe('PAY & CLAIM ($31)');
  });

  it('counts the message n/140, red above 130, and caps the input at 140', async () => {
    const user = userEvent.setup();
    renderPopup();
    const message = screen.getByLabelText('Message');
    await user.click(message);
    await user.paste('x'.repeat(130));
    const counter = screen.getByText('130/140');
    expect(counter.getAttribute('data-warning')).toBe('false');
    await user.type(message, 'y');
    expect(screen.getByText('131/140').getAttribute('data-warning')).toBe('true');
    expect(screen.getByText('131/140').className).toContain('text-danger-text');
    await user.paste('z'.repeat(50));
    expect((message as HTMLTextAreaElement).value).toHaveLength(140);
    expect(screen.getByText('140/140')).toBeTruthy();
  });
});

describe('claim popup checks before the checkout', () => {
  beforeEach(clearAvatarCrops);

  it('shows field errors under the fields and sends nothing', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({});
    renderPopup();
    await fillProfile(user, { name: 'A', message: '', link: 'ftp://example.com' });
    await user.click(payButton());
    expect(screen.getByText('Display name must be at least 2 characters')).toBeTruthy();
    expect(screen.getByText('Please enter a valid http or https URL')).toBeTruthy();
    expect(screen.getByLabelText('Display name').getAttribute('aria-invalid')).toBe('true');
    expect(gateway.calls).toEqual([]);
  });

  it("blocks paying without a saved avatar: 'Missing Avatar'", async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({});
    renderPopup();
    await fillProfile(user);
    await user.click(payButton());
    expect(await screen.findByText('Missing Avatar')).toBeTruthy();
    expect(screen.getByText('Please upload and save an avatar for your plot.')).toBeTruthy();
    expect(gateway.calls).toEqual([]);
  });

  it("blocks paying without a tile: 'Missing Tile Selection'", async () => {
    const user = userEvent.setup();
    renderPopup(null);
    await user.click(payButton());
    expect(await screen.findByText('Missing Tile Selection')).toBeTruthy();
    expect(screen.getByText('Please select a tile location for your plot.')).toBeTruthy();
  });

  it("refuses water with 'Invalid Location'", async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/position-available?x=10&y=12&tier=basic': [() => jsonResponse({ available: false, reason: 'water' })],
    });
    renderPopup();
    await payWithProfile(user);
    expect(await screen.findByText('Invalid Location')).toBeTruthy();
    expect(screen.getByText('You can only claim plots on land, not in water. Please choose another location.')).toBeTruthy();
    expect(gateway.countOf('POST /api/create-checkout-session')).toBe(0);
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
  });

  it.each([
    ['taken', () => jsonResponse({ available: false, reason: 'taken' })],
    ['a failed check', () => new Response('boom', { status: 502 })],
  ])("refuses %s with 'Tile Unavailable'", async (_, answer) => {
    const user = userEvent.setup();
    const gateway = fakeGateway({ 'GET /api/position-available?x=10&y=12&tier=basic': [answer] });
    renderPopup();
    await payWithProfile(user);
    expect(await screen.findByText('Tile Unavailable')).toBeTruthy();
    expect(screen.getByText('This tile is already claimed. Please choose another.')).toBeTruthy();
    expect(gateway.countOf('POST /api/create-checkout-session')).toBe(0);
  });

  it.each([
    ['held', 'Tile Reserved', 'This tile is reserved while someone pays. Try again in a few minutes or choose another tile.'],
    ['review', 'Tile Under Review', 'A plot here is under review, so this tile is not for sale. Please choose another tile.'],
  ])("refuses %s land with its true reason, not 'already claimed'", async (reason, title, description) => {
    const user = userEvent.setup();
    const gateway = fakeGateway({ 'GET /api/position-available?x=10&y=12&tier=basic': [() => jsonResponse({ available: false, reason })] });
    renderPopup();
    await payWithProfile(user);
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.getByText(description)).toBeTruthy();
    expect(gateway.countOf('POST /api/create-checkout-session')).toBe(0);
  });
});

describe('claim popup checkout', () => {
  beforeEach(clearAvatarCrops);

  it('saves the pending claim, clears selectedTier, starts the checkout for the tier and goes to its page', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    localStorage.setItem('selectedTier', 'featured');
    const gateway = fakeGateway({
      'GET /api/position-available?x=10&y=12&tier=featured': [AVAILABLE],
      'POST /api/create-checkout-session': [() => jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_1' }, { status: 201 })],
    });
    renderPopup();
    await payWithProfile(user, { name: '  Ada Pixel ', message: 'Hello', link: 'https://ada.example' });

    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(gateway.calls.find((call) => call.route === 'POST /api/create-checkout-session')?.body).toEqual({
      tier: 'featured',
      x: 10,
      y: 12,
    });
    expect(JSON.parse(sessionStorage.getItem('pendingClaim')!)).toEqual({
      x: 10,
      y: 12,
      display_name: 'Ada Pixel',
      message: 'Hello',
      link: 'https://ada.example',
      tier: 'featured',
      avatar_url: 'data:image/png;base64,SAVED',
    });
    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(vi.mocked(cropAvatar)).toHaveBeenCalledWith(expect.stringMatching(/^data:image\/png;base64,/), null, 'round');
    expect((payButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it("says the spot is not reserved when the checkout could not hold it, and goes to the checkout only on 'CONTINUE TO PAYMENT'", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    fakeGateway({
      'GET /api/position-available?x=10&y=12&tier=basic': [AVAILABLE],
      'POST /api/create-checkout-session': [() => jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_1', held: false })],
    });
    renderPopup();
    await payWithProfile(user);

    const notice = await screen.findByRole('dialog', { name: 'Spot Not Reserved' });
    expect(within(notice).getByText(NOT_HELD_NOTICE)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    // The claim waits for the payment as usual: if the spot goes meanwhile, /claim asks for another.
    expect(sessionStorage.getItem('pendingClaim')).not.toBeNull();
    await user.click(within(notice).getByRole('button', { name: 'CONTINUE TO PAYMENT' }));
    expect(assign).toHaveBeenCalledWith(CHECKOUT_URL);
  });

  it("'CHOOSE ANOTHER SPOT' on the not-reserved notice ends that checkout and leaves the popup open", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const gateway = fakeGateway({
      'GET /api/position-available?x=10&y=12&tier=basic': [AVAILABLE],
      'POST /api/create-checkout-session': [() => jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_1', held: false })],
      'GET /api/payments/checkout-cancel?session_id=cs_test_1': [() => new Response(null, { status: 200 })],
    });
    renderPopup();
    await payWithProfile(user);
    const notice = await screen.findByRole('dialog', { name: 'Spot Not Reserved' });
    await user.click(within(notice).getByRole('button', { name: 'CHOOSE ANOTHER SPOT' }));

    await waitFor(() => expect(gateway.countOf('GET /api/payments/checkout-cancel?session_id=cs_test_1')).toBe(1));
    expect(screen.queryByRole('dialog', { name: 'Spot Not Reserved' })).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
    expect((payButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows 'Payment Error' (destructive, 3 s) when the checkout cannot start, and forgets the pending claim", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    fakeGateway({
      'GET /api/position-available?x=10&y=12&tier=basic': [AVAILABLE],
      'POST /api/create-checkout-session': [() => new Response('', { status: 502 })],
    });
    renderPopup();
    await payWithProfile(user);

    const toast = (await screen.findByText('Payment Error')).closest('[data-variant]');
    expect(toast?.getAttribute('data-variant')).toBe('destructive');
    expect(screen.getByText('Failed to start payment process. Please try again.')).toBeTruthy();
    expect(CLAIM_TOASTS.paymentError.duration).toBe(3000);
    expect(assign).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
    expect((payButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("opens 'Content Under Review' on a listed word and passes the address on as notification_email", async () => {
    const user = userEvent.setup();
    const gateway = startingCheckoutGateway();
    renderPopup();
    await payWithProfile(user, { name: 'Damn Fine Pixels', message: 'Hi' });

    const review = await screen.findByRole('dialog', { name: 'Content Under Review' });
    expect(within(review).getByText(/payment processed/)).toBeTruthy();
    expect(within(review).getByText(/within 24 hours/)).toBeTruthy();
    expect(within(review).getByText(/visible on the map once approved/)).toBeTruthy();
    expect(gateway.countOf('POST /api/create-checkout-session')).toBe(0);

    await user.type(within(review).getByLabelText(/Email/), 'not-an-address');
    await user.click(within(review).getByRole('button', { name: 'Create Plot' }));
    expect(within(review).getByText('Please enter a valid email address')).toBeTruthy();
    await user.clear(within(review).getByLabelText(/Email/));
    await user.type(within(review).getByLabelText(/Email/), 'ada@example.com');
    await user.click(within(review).getByRole('button', { name: 'Create Plot' }));

    await waitFor(() => expect(gateway.countOf('POST /api/create-checkout-session')).toBe(1));
    expect(JSON.parse(sessionStorage.getItem('pendingClaim')!).notification_email).toBe('ada@example.com');
  });

  it('goes straight to the checkout for a name that merely contains a listed word, and asks about a disguised one', async () => {
    const user = userEvent.setup();
    const gateway = startingCheckoutGateway();
    const { unmount } = renderPopup();
    await payWithProfile(user, { name: 'Essex Skill School', message: 'Latest Android builds' });
    await waitFor(() => expect(gateway.countOf('POST /api/create-checkout-session')).toBe(1));
    expect(screen.queryByRole('dialog', { name: 'Content Under Review' })).toBeNull();
    unmount();

    renderPopup();
    await payWithProfile(user, { name: 'Night Owl', message: 'hot s\u0435\u00ADx' }); // Cyrillic е, soft hyphen
    expect(await screen.findByRole('dialog', { name: 'Content Under Review' })).toBeTruthy();
    expect(gateway.countOf('POST /api/create-checkout-session')).toBe(1);
  });

  it("'Skip' continues without an address", async () => {
    const user = userEvent.setup();
    const gateway = startingCheckoutGateway();
    renderPopup();
    await payWithProfile(user, { name: 'Pixel Testers', message: 'Hi' });
    await user.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(gateway.countOf('POST /api/create-checkout-session')).toBe(1));
    expect(JSON.parse(sessionStorage.getItem('pendingClaim')!)).not.toHaveProperty('notification_email');
  });
});

describe('claim popup avatar', () => {
  it.each([
    [
      'a file of another type',
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      'File type must be one of .jpeg, .jpg, .png, .gif',
    ],
    ['a file over 1 MB', pngFile('big.png', 1048577), 'File is larger than 1 MB'],
  ])("refuses %s with 'Upload Failed'", async (_, file, message) => {
    const user = userEvent.setup({ applyAccept: false });
    renderPopup();
    await user.upload(screen.getByLabelText('Avatar image file'), file);
    expect(await screen.findByText('Upload Failed')).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Avatar' })).toBeNull();
  });

  it('Cancel discards the chosen file', async () => {
    const user = userEvent.setup();
    renderPopup();
    await user.upload(screen.getByLabelText('Avatar image file'), pngFile());
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Save Avatar' })).toBeNull();
    expect(screen.queryByAltText('Your saved avatar')).toBeNull();
  });

  it("reports a failed save as 'Upload Failed'", async () => {
    const user = userEvent.setup();
    vi.mocked(cropAvatar).mockRejectedValueOnce(new Error('no canvas'));
    renderPopup();
    await user.upload(screen.getByLabelText('Avatar image file'), pngFile());
    await user.click(await screen.findByRole('button', { name: 'Save Avatar' }));
    expect(await screen.findByText('Failed to save avatar. Please try again.')).toBeTruthy();
    expect(screen.getByText('Upload Failed')).toBeTruthy();
  });
});
