import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef, useState } from 'react';
import { buttonClassName, type ButtonSize } from '../../components/button-styles.ts';
import { useInertBehindPopup } from '../../hooks/use-inert-behind-popup.ts';
import { toast } from '../../hooks/use-toast.ts';
import { SHARE_NETWORKS, networkShareUrl, openSharePopup, plotShareText, plotShareUrl, type SharedPlot } from './share-links.ts';

/** Spec section 9: the copy indicator shows for 2000 ms. */
export const COPIED_INDICATOR_MS = 2000;

const ITEM_CLASS =
  'flex min-h-11 cursor-pointer items-center px-3 text-sm text-ink outline-none select-none data-[highlighted]:bg-gold data-[highlighted]:text-ink-dark';

/** Spec section 2: 'Share Plot' with four networks and Copy Link. */
export function ShareMenu({ plot, size = 'sm' }: { plot: SharedPlot; size?: ButtonSize }) {
  const [copied, setCopied] = useState(false);
  const [open, setOpen] = useState(false);
  useInertBehindPopup(open);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  // The address is read when a network or Copy Link is picked: the menu also renders on the server, without a window.
  const text = plotShareText(plot);

  const copy = async () => {
    const url = plotShareUrl(plot.id);
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
      toast({ title: 'Link Copied!', description: 'Plot link has been copied to your clipboard.' });
    } catch {
      toast({ title: 'Copy Failed', description: 'Failed to copy link. Please try again.', variant: 'destructive' });
    }
  };

  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger className={buttonClassName('secondary', size)}>Share Plot</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content sideOffset={4} align="start" className="z-[60] min-w-52 border-2 border-border bg-panel p-1 shadow-pixel">
          {SHARE_NETWORKS.map((network) => (
            <DropdownMenu.Item
              key={network}
              className={ITEM_CLASS}
              onSelect={() => {
                openSharePopup(networkShareUrl(network, plotShareUrl(plot.id), text));
                toast({ title: 'Opening Share Dialog', description: `Sharing your plot on ${network}.` });
              }}
            >
              Share on {network}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-0.5 bg-border" />
          <DropdownMenu.Item
            className={ITEM_CLASS}
            onSelect={(event) => {
              // Stay open so 'Copied!' can be seen.
              event.preventDefault();
              void copy();
            }}
          >
            <span aria-live="polite">{copied ? 'Copied!' : 'Copy Link'}</span>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
