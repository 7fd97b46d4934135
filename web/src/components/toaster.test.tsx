import * as Dialog from '@radix-ui/react-dialog';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app-providers.tsx';
import { toast } from '../hooks/use-toast.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { PixelDialogContent } from './pixel-dialog.tsx';
import { advanceTimers } from '../test/advance-timers.ts';

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

      advanceTimers(4900);
      expect(toastElement('Default length')?.getAttribute('data-state')).toBe('open');
      advanceTimers(1000);
      expect(toastElement('Default length')?.getAttribute('data-state') ?? 'gone').not.toBe('open');

      act(() => void toast({ title: 'Short', duration: 3000 }));
      advanceTimers(3100);
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

  it('never takes Escape from an open dialog: Escape closes the dialog while a toast is showing', () => {
    renderDialogWithToaster();
    act(() => void toast({ title: 'Position Unavailable', description: 'Pick another tile.' }));
    expect(screen.getByRole('dialog', { name: 'Claim This Tile' })).toBeTruthy();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Claim This Tile' })).toBeNull();
  });

  it('closing a toast leaves the dialog under it open', () => {
    renderDialogWithToaster();
    act(() => void toast({ title: 'Avatar Saved' }));
    const close = screen.getByRole('button', { name: 'Close notification' });
    fireEvent.pointerDown(close);
    fireEvent.click(close);
    expect(toastElement('Avatar Saved')?.getAttribute('data-state') ?? 'gone').not.toBe('open');
    expect(screen.getByRole('dialog', { name: 'Claim This Tile' })).toBeTruthy();
  });

  it('closes with Escape when the focus is on it', () => {
    renderToaster();
    act(() => void toast({ title: 'Focused' }));
    const close = screen.getByRole('button', { name: 'Close notification' });
    close.focus();
    fireEvent.keyDown(close, { key: 'Escape' });
    expect(toastElement('Focused')?.getAttribute('data-state') ?? 'gone').not.toBe('open');
  });

  it('waits while the pointer rests on a toast, then closes after the time it had left', () => {
    vi.useFakeTimers();
    try {
      renderToaster();
      act(() => void toast({ title: 'Read me', duration: 3000 }));
      advanceTimers(2000);
      fireEvent.pointerEnter(toastElement('Read me')!);
      advanceTimers(10_000);
      expect(toastElement('Read me')?.getAttribute('data-state')).toBe('open');
      fireEvent.pointerLeave(toastElement('Read me')!);
      advanceTimers(900);
      expect(toastElement('Read me')?.getAttribute('data-state')).toBe('open');
      advanceTimers(200);
      expect(toastElement('Read me')?.getAttribute('data-state') ?? 'gone').not.toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('announces a destructive toast as an alert and the others as status', () => {
    renderToaster();
    act(() => void toast({ title: 'Saved' }));
    expect(screen.getByRole('status').textContent).toContain('Saved');
    act(() => void toast({ title: 'Upload Failed', variant: 'destructive' }));
    expect(screen.getByRole('alert').textContent).toContain('Upload Failed');
  });
});

function DialogWithToaster() {
  const [open, setOpen] = useState(true);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      {open ? (
        <PixelDialogContent title="Claim This Tile" placement="beside-map" aria-describedby={undefined}>
          <input aria-label="Display name" />
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}

function renderDialogWithToaster() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <DialogWithToaster />
    </AppProviders>,
  );
}
