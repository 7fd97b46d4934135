import * as Dialog from '@radix-ui/react-dialog';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
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

/** Escape closes the open dialog; focus must then come to rest on what `expected` finds. */
async function escapeThenExpectFocusOn(user: UserEvent, expected: () => Element) {
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(document.activeElement).toBe(expected()));
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
      await escapeThenExpectFocusOn(user, () => canvas);
    }
  });
});

/** Auto-assign's path: a dialog whose button closes it and opens a second one (the claim popup). */
function ChainedDialogs() {
  const [first, setFirst] = useState(false);
  const [second, setSecond] = useState(false);
  return (
    <>
      <section id="atlas-map">
        <canvas tabIndex={0} aria-roledescription="map" aria-label="Atlas map" />
      </section>
      <button type="button" onClick={() => setFirst(true)}>
        Select Basic Plot
      </button>
      <Dialog.Root open={first} onOpenChange={setFirst}>
        <PixelDialogContent title="Basic Tier Selected!" aria-describedby={undefined}>
          <button
            type="button"
            onClick={() => {
              setFirst(false);
              setSecond(true);
            }}
          >
            AUTO-ASSIGN A PLOT
          </button>
        </PixelDialogContent>
      </Dialog.Root>
      <Dialog.Root open={second} onOpenChange={setSecond}>
        <PixelDialogContent title="Claim This Tile" aria-describedby={undefined}>
          <p>Position (15, 20)</p>
        </PixelDialogContent>
      </Dialog.Root>
    </>
  );
}

describe('pixel dialog focus, when what opened it is gone', () => {
  it('goes to the map (where the buyer was), not to <body>', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ChainedDialogs />);
    await user.click(screen.getByRole('button', { name: 'Select Basic Plot' }));
    await user.click(await screen.findByRole('button', { name: 'AUTO-ASSIGN A PLOT' }));
    expect(await screen.findByRole('dialog', { name: 'Claim This Tile' })).toBeTruthy();
    await escapeThenExpectFocusOn(user, () => screen.getByLabelText('Atlas map'));
  });
});

/** PAY & CLAIM's path: the button disables itself while it checks, then opens 'Content Under Review'. */
function SelfDisablingOpener() {
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setTimeout(() => {
            setBusy(false);
            setOpen(true);
          }, 20);
        }}
      >
        PAY & CLAIM
      </button>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <PixelDialogContent title="Content Under Review" aria-describedby={undefined}>
          <p>We review it first.</p>
        </PixelDialogContent>
      </Dialog.Root>
    </>
  );
}

describe('pixel dialog focus, when the opener disabled itself meanwhile', () => {
  it('goes back to that button once it is enabled again', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SelfDisablingOpener />);
    const pay = screen.getByRole('button', { name: 'PAY & CLAIM' });
    await user.click(pay);
    expect(await screen.findByRole('dialog', { name: 'Content Under Review' })).toBeTruthy();
    await escapeThenExpectFocusOn(user, () => pay);
  });
});

describe('pixel dialog and the Back button', () => {
  it('pushes an entry while open: Back closes the dialog and stays on the page', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MapWithPopup />);
    const url = window.location.href;
    await user.click(screen.getByLabelText('Atlas map'));
    await screen.findByRole('dialog', { name: 'Ada Pixel' });
    await waitFor(() => expect((window.history.state as Record<string, unknown> | null)?.pixelAtlasDialog).toBeDefined());
    window.history.back();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.href).toBe(url);
  });

  it('closed by its own button, it steps back over its entry, so the next Back goes where it went before', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MapWithPopup />);
    await user.click(screen.getByLabelText('Atlas map'));
    await screen.findByRole('dialog', { name: 'Ada Pixel' });
    const entry = () => (window.history.state as Record<string, unknown> | null)?.pixelAtlasDialog;
    await waitFor(() => expect(entry()).toBeDefined());
    const own = entry();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(entry()).not.toBe(own));
  });
});
