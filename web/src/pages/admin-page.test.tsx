import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { flaggedPlotsQuery } from '../api/admin-queries.ts';
import { PLOTS_QUERY_KEY } from '../api/queries.ts';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';

const unauthenticated = () => jsonResponse({ error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } }, { status: 401 });
const signedInAs = (username: string) => () => jsonResponse({ username });

describe('admin page', () => {
  it('shows the title and the sign-in form when /api/admin/me answers 401', async () => {
    const gateway = fakeGateway({ 'GET /api/admin/me': [unauthenticated] });
    renderApp('/admin');

    expect(screen.getByRole('heading', { level: 1, name: 'Atlas Map Administration' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(gateway.countOf('GET /api/admin/me')).toBe(1);
  });

  it("shows the server's message inline when the credentials are wrong", async () => {
    const user = userEvent.setup();
    fakeGateway({
      'GET /api/admin/me': [unauthenticated],
      'POST /api/admin/login': [
        () => jsonResponse({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' } }, { status: 401 }),
      ],
    });
    renderApp('/admin');

    await user.type(await screen.findByLabelText('Username'), 'warden');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password');
    expect(screen.getByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
  });

  it('asks for both fields before calling the server', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({ 'GET /api/admin/me': [unauthenticated] });
    renderApp('/admin');

    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    expect(screen.getByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(gateway.countOf('POST /api/admin/login')).toBe(0);
  });

  it('shows who is signed in after a successful login, then signs out back to the form', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      // The login reply carries no body here, so the page must ask /me again.
      'GET /api/admin/me': [unauthenticated, signedInAs('warden')],
      'POST /api/admin/login': [() => new Response(null, { status: 204 })],
      'POST /api/admin/logout': [() => new Response(null, { status: 204 })],
    });
    const { queryClient } = renderApp('/admin');

    await user.type(await screen.findByLabelText('Username'), 'warden');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('warden')).toBeTruthy();
    expect(screen.getByText(/Signed in as/)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(gateway.calls.find((call) => call.route === 'POST /api/admin/login')?.body).toEqual({
      username: 'warden',
      password: 'correct horse',
    });

    queryClient.setQueryData(flaggedPlotsQuery().queryKey, []);
    queryClient.setQueryData(PLOTS_QUERY_KEY, []);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
    expect(gateway.countOf('POST /api/admin/logout')).toBe(1);
    // Admin data must not outlive the session; public data stays cached.
    expect(queryClient.getQueryData(flaggedPlotsQuery().queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(PLOTS_QUERY_KEY)).toEqual([]);
  });

  it('uses the login reply directly when it names the admin', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [unauthenticated],
      'POST /api/admin/login': [signedInAs('keeper')],
    });
    renderApp('/admin');

    await user.type(await screen.findByLabelText('Username'), 'keeper');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('keeper')).toBeTruthy();
    expect(gateway.countOf('GET /api/admin/me')).toBe(1);
  });
});

describe('admin page session and passkeys', () => {
  it('goes straight to the signed-in view when the session cookie is still valid', async () => {
    fakeGateway({ 'GET /api/admin/me': [signedInAs('warden')] });
    renderApp('/admin');

    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy());
    expect(screen.queryByLabelText('Username')).toBeNull();
  });

  it('says the service is unreachable and retries on request when /api/admin/me fails', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [() => new Response('', { status: 502, statusText: 'Bad Gateway' }), unauthenticated],
    });
    renderApp('/admin');

    expect((await screen.findByRole('alert')).textContent).toContain('Could not reach the administration service.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
    expect(gateway.countOf('GET /api/admin/me')).toBe(2);
  });

  it('offers a passkey sign-in, and says so in plain words when this browser has no passkeys', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({
      'GET /api/admin/me': [unauthenticated],
      'POST /api/admin/passkey-sign-in/options': [
        () => jsonResponse({ challenge: 'abc', rpId: 'localhost', userVerification: 'required' }),
      ],
    });
    renderApp('/admin');

    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));

    // jsdom has no WebAuthn: the browser library refuses before any prompt.
    expect((await screen.findByRole('alert')).textContent).toBe('This browser does not support passkeys.');
    expect(gateway.countOf('POST /api/admin/passkey-sign-in')).toBe(0);
    expect(screen.getByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
  });

  it("shows the server's message when the passkey sign-in is refused", async () => {
    const user = userEvent.setup();
    fakeGateway({
      'GET /api/admin/me': [unauthenticated],
      'POST /api/admin/passkey-sign-in/options': [
        () =>
          jsonResponse(
            { error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait 9 seconds and try again.' } },
            { status: 429 },
          ),
      ],
    });
    renderApp('/admin');

    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please wait 9 seconds and try again.');
  });

  it('shows the Passkeys section with an Add a passkey button when signed in', async () => {
    fakeGateway({
      'GET /api/admin/me': [signedInAs('warden')],
      'GET /api/admin/passkeys': [() => jsonResponse({ passkeys: [{ id: 'a', createdAt: '2026-11-28T10:00:00Z', lastUsedAt: null }] })],
    });
    renderApp('/admin');

    const section = await screen.findByTestId('admin-passkeys');
    expect(await within(section).findByText('You have 1 passkey.')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Add a passkey' })).toBeTruthy();
  });
});
