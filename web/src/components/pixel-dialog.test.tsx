import * as Dialog from '@radix-ui/react-dialog';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { PixelDialogContent } from './pixel-dialog.tsx';

/** A focusable map canvas (the engine gives it tabIndex 0) that opens a dialog on click, as the atlas does. */
function MapWithPopup() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <canvas tabIndex={0} aria-label="Atlas map" onClick={() => setOpen(true)} />
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <PixelDialogContent title="Ada Pixel" aria-describedby={undefined}>
          <button type="button" onClick={() => setOpen(false)}>
            Flag Content
          </button>
        </PixelDialogContent>
      </Dialog.Root>
    </>
  );
}

describe('pixel dialog focus', () => {
  it.each([
    ['the close button', 'Close'],
    ['an action that closes it', 'Flag Content'],
  ])('gives focus back to the map canvas that opened it, closed with %s', async (_how, button) => {
    const user = userEvent.setup();
    renderWithProviders(<MapWithPopup />);
    const canvas = screen.getByLabelText('Atlas map');
    await user.click(canvas);
    expect(await screen.findByRole('dialog', { name: 'Ada Pixel' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
    await user.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(canvas));
  });

  it('gives focus back after Escape, on every opening', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MapWithPopup />);
    const canvas = screen.getByLabelText('Atlas map');
    for (let round = 0; round < 2; round += 1) {
      await user.click(canvas);
      await screen.findByRole('dialog');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(canvas));
    }
  });
});
