import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { SHARE_HASHTAGS, networkShareUrl, plotShareText, plotShareUrl } from './share-links.ts';
import { ShareMenu } from './share-menu.tsx';

const plot = { id: '11111111-1111-4111-8111-111111111111', tier: 'prime' as const, x: 7, y: 9, message: 'Come visit my corner' };
const plotUrl = `${window.location.origin}/plot/${plot.id}`;

describe('share links', () => {
  it('uses the origin plus /plot/{id}, the message or a default sentence, and the three hashtags', () => {
    expect(plotShareUrl(plot.id)).toBe(plotUrl);
    expect(plotShareText(plot)).toBe('Come visit my corner');
    expect(plotShareText({ ...plot, message: '' })).toBe('Check out this Prime plot claimed at coordinates (7, 9) on the Pixel Atlas map!');
    expect(SHARE_HASHTAGS).toEqual(['PixelAtlas', 'DigitalLandscape', 'CreatorSpace']);
    const tweet = new URL(networkShareUrl('Twitter', plotUrl, 'hi'));
    expect(tweet.searchParams.get('url')).toBe(plotUrl);
    expect(tweet.searchParams.get('hashtags')).toBe('PixelAtlas,DigitalLandscape,CreatorSpace');
    expect(new URL(networkShareUrl('Reddit', plotUrl, 'hi')).hostname).toBe('www.reddit.com');
  });
});

describe('Share Plot menu', () => {
  it('offers the four networks and Copy Link', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShareMenu plot={plot} />);
    await user.click(screen.getByRole('button', { name: 'Share Plot' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual([
      'Share on Twitter',
      'Share on Facebook',
      'Share on LinkedIn',
      'Share on Reddit',
      'Copy Link',
    ]);
  });

  it("copies the link, shows 'Copied!' for 2 seconds and the toast", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShareMenu plot={plot} />);
    await user.click(screen.getByRole('button', { name: 'Share Plot' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy Link' }));
    expect(await screen.findByText('Copied!')).toBeTruthy();
    expect(await screen.findByText('Link Copied!')).toBeTruthy(); // the toaster mounts with its first toast
    expect(screen.getByText('Plot link has been copied to your clipboard.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(plotUrl);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Copy Link' })).toBeTruthy(), { timeout: 3000 });
  });

  it("says 'Copy Failed' when the clipboard refuses", async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderWithProviders(<ShareMenu plot={plot} />);
    await user.click(screen.getByRole('button', { name: 'Share Plot' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy Link' }));
    expect(await screen.findByText('Copy Failed')).toBeTruthy();
    expect(screen.getByText('Failed to copy link. Please try again.')).toBeTruthy();
    expect(screen.queryByText('Copied!')).toBeNull();
  });

  it('opens a network in a 600x400 popup without opener and says so', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(<ShareMenu plot={plot} />);
    await user.click(screen.getByRole('button', { name: 'Share Plot' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Share on LinkedIn' }));
    expect(open).toHaveBeenCalledWith(
      expect.stringContaining('https://www.linkedin.com/'),
      '_blank',
      'noopener,noreferrer,width=600,height=400',
    );
    expect(await screen.findByText('Opening Share Dialog')).toBeTruthy();
    expect(screen.getByText('Sharing your plot on LinkedIn.')).toBeTruthy();
  });
});
