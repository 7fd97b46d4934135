import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { installUnloadCleanup, resetOnFirstLoadOfSession } from './session-housekeeping.ts';

describe('resetOnFirstLoadOfSession', () => {
  it('on the first load of a session: sets the flag, forgets the tier and draft claim, clears the cache', () => {
    localStorage.setItem('selectedTier', 'premium');
    localStorage.setItem('tempClaimData', '{"x":1}');
    localStorage.setItem('unrelated', 'kept');
    const queryClient = new QueryClient();
    queryClient.setQueryData(['/api/plots'], []);

    resetOnFirstLoadOfSession(queryClient);

    expect(sessionStorage.getItem('app_initialized')).not.toBeNull();
    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    expect(queryClient.getQueryData(['/api/plots'])).toBeUndefined();
  });

  it('on later loads of the same session: leaves everything alone', () => {
    sessionStorage.setItem('app_initialized', 'true');
    localStorage.setItem('selectedTier', 'prime');
    const queryClient = new QueryClient();
    queryClient.setQueryData(['/api/plots'], []);

    resetOnFirstLoadOfSession(queryClient);

    expect(localStorage.getItem('selectedTier')).toBe('prime');
    expect(queryClient.getQueryData(['/api/plots'])).toEqual([]);
  });
});

describe('installUnloadCleanup', () => {
  let uninstall: () => void = () => {};
  afterEach(() => uninstall());

  it('pagehide forgets both the tier and the draft claim', () => {
    uninstall = installUnloadCleanup(window);
    localStorage.setItem('selectedTier', 'basic');
    localStorage.setItem('tempClaimData', '{}');

    window.dispatchEvent(new Event('pagehide'));

    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBeNull();
  });

  it.each(['beforeunload', 'unload'])('%s forgets only the tier', (eventName) => {
    uninstall = installUnloadCleanup(window);
    localStorage.setItem('selectedTier', 'basic');
    localStorage.setItem('tempClaimData', '{}');

    window.dispatchEvent(new Event(eventName));

    expect(localStorage.getItem('selectedTier')).toBeNull();
    expect(localStorage.getItem('tempClaimData')).toBe('{}');
  });

  it('stops listening once uninstalled', () => {
    installUnloadCleanup(window)();
    localStorage.setItem('selectedTier', 'basic');

    window.dispatchEvent(new Event('pagehide'));

    expect(localStorage.getItem('selectedTier')).toBe('basic');
  });
});
