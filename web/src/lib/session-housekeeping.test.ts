import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLOTS_QUERY_KEY } from '../api/queries.ts';
import { installPageHideCleanup, resetOnFirstLoadOfSession } from './session-housekeeping.ts';

describe('resetOnFirstLoadOfSession', () => {
  it('on the first load of a session: sets the flag, forgets the tier and draft claim, clears the cache', () => {
    localStorage.setItem('selectedTier', 'premium');
    localStorage.setItem('tempClaimData', '{"x":1}');
    localStorage.setItem('unrelated', 'kept');
    const queryClient = new QueryClient();
    queryClient.setQueryData(PLOTS_QUERY_KEY, []);

    resetOnFirstLoadOfSession(queryClient);

    expect(sessionStorage.getItem('app_initialized')).not.toBeNull();
    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(queryClient.getQueryData(PLOTS_QUERY_KEY)).toBeUndefined();
  });

  it('on later loads of the same session: leaves everything alone', () => {
    sessionStorage.setItem('app_initialized', 'true');
    localStorage.setItem('selectedTier', 'prime');
    const queryClient = new QueryClient();
    queryClient.setQueryData(PLOTS_QUERY_KEY, []);

    resetOnFirstLoadOfSession(queryClient);

    expect(localStorage.getItem('selectedTier')).toBe('prime');
    expect(queryClient.getQueryData(PLOTS_QUERY_KEY)).toEqual([]);
  });
});

describe('installPageHideCleanup', () => {
  let uninstall: () => void = () => {};
  afterEach(() => uninstall());

  it('pagehide forgets both the tier and the draft claim', () => {
    uninstall = installPageHideCleanup(window);
    localStorage.setItem('selectedTier', 'basic');
    localStorage.setItem('tempClaimData', '{}');

    window.dispatchEvent(new Event('pagehide'));

    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBeNull();
  });

  it('a pagehide into the back/forward cache (persisted) forgets them too', () => {
    uninstall = installPageHideCleanup(window);
    localStorage.setItem('selectedTier', 'featured');
    localStorage.setItem('tempClaimData', '{}');

    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));

    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBeNull();
  });

  it('listens to no unload or beforeunload event (they block the back/forward cache)', () => {
    const added = vi.spyOn(window, 'addEventListener');

    uninstall = installPageHideCleanup(window);

    const events = added.mock.calls.map(([type]) => type);
    expect(events).toContain('pagehide');
    expect(events).not.toContain('unload');
    expect(events).not.toContain('beforeunload');
  });

  it('stops listening once uninstalled', () => {
    installPageHideCleanup(window)();
    localStorage.setItem('selectedTier', 'basic');

    window.dispatchEvent(new Event('pagehide'));

    expect(localStorage.getItem('selectedTier')).toBe('basic');
  });
});
