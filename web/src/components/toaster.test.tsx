import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app-providers.tsx';
import { toast } from '../hooks/use-toast.ts';
import { createQueryClient } from '../lib/query-client.ts';

function renderToaster() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <p>page</p>
    </AppProviders>,
  );
}

const toastElement = (title: string) => screen.queryByText(title)?.closest('[data-variant]') ?? null;

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the current one', () => {
    renderToaster();

    act(() => void toast({ title: 'First', description: 'one' }));
    act(() => void toast({ title: 'Second', description: 'two', variant: 'destructive' }));

    expect(toastElement('First')).toBeNull();
    expect(toastElement('Second')?.getAttribute('data-variant')).toBe('destructive');
    expect(screen.getByText('two')).toBeTruthy();
  });

  it('closes after 5000 ms by default, or after the given duration', () => {
    vi.useFakeTimers();
    try {
      renderToaster();
      act(() => void toast({ title: 'Default length' }));

      act(() => vi.advanceTimersByTime(4900));
      expect(toastElement('Default length')?.getAttribute('data-state')).toBe('open');
      act(() => vi.advanceTimersByTime(1000));
      expect(toastElement('Default length')?.getAttribute('data-state') ?? 'gone').not.toBe('open');

      act(() => void toast({ title: 'Short', duration: 3000 }));
      act(() => vi.advanceTimersByTime(3100));
      expect(toastElement('Short')?.getAttribute('data-state') ?? 'gone').not.toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('can be dismissed with its close button', async () => {
    renderToaster();
    act(() => void toast({ title: 'Closable' }));

    act(() => screen.getByRole('button', { name: 'Close notification' }).click());

    expect(toastElement('Closable')?.getAttribute('data-state') ?? 'gone').not.toBe('open');
  });
});
