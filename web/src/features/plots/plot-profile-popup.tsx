import * as Dialog from '@radix-ui/react-dialog';
import { zoneName } from '@pixel-atlas/contracts/zones';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { buttonClassName } from '../../components/button-styles.ts';
import { PixelDialogContent } from '../../components/pixel-dialog.tsx';
import type { AtlasPlot } from '../../map/components/atlas-plot.ts';
import { FlagButton } from './flag-button.tsx';
import { OutboundLink, safeHttpLink } from './outbound-link.tsx';
import { PlotAvatar } from './plot-avatar.tsx';
import { plotsQuery } from '../../api/queries.ts';
import { ShareMenu } from './share-menu.tsx';
import { sendStatBeacon } from './stat-beacon.ts';
import { TierBadge } from './tier-badge.tsx';

interface PlotProfilePopupProps {
  /** The plot clicked on the map; null when closed. */
  plot: AtlasPlot | null;
  onClose: () => void;
}

/**
 * Spec section 2, profile card overlay: avatar, name, message, tier, zone, 'View {name}'s Plot',
 * visit website, share and flag. Scales and fades in; closes on ×, Escape, outside click or a flag.
 */
export function PlotProfilePopup({ plot, onClose }: PlotProfilePopupProps) {
  return (
    <Dialog.Root open={plot !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {plot ? <ProfileCard clicked={plot} onClose={onClose} /> : null}
    </Dialog.Root>
  );
}

function ProfileCard({ clicked, onClose }: { clicked: AtlasPlot; onClose: () => void }) {
  // The map hands over what it draws; the full record is in the plot list it was drawn from.
  const plots = useQuery(plotsQuery());
  const full = plots.data?.find((candidate) => candidate.id === clicked.id);
  const plot = { ...clicked, ...full };
  const link = safeHttpLink(plot.link);
  const regionName = full?.region_name;
  // Once per opening (React's development double effects keep the ref).
  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (counted.current === clicked.id) return;
    counted.current = clicked.id;
    sendStatBeacon(clicked.id, 'profile_open');
  }, [clicked.id]);

  return (
    <PixelDialogContent title={plot.display_name} className="dialog-pop md:max-w-md" aria-describedby={undefined}>
      <div className="flex items-start gap-4">
        <PlotAvatar src={plot.avatar_url} alt={`${plot.display_name}'s avatar`} className="size-20 shrink-0" />
        <div className="grid min-w-0 gap-2">
          <TierBadge tier={plot.tier} className="w-fit" />
          <p className="text-sm text-ink-muted">
            {plot.zone ? zoneName(plot.zone) : null}
            {regionName ? `${plot.zone ? ' · ' : ''}${regionName}` : null}
          </p>
          <p className="text-xs text-ink-muted">
            Position ({plot.x}, {plot.y})
          </p>
        </div>
      </div>
      {plot.message ? <p className="mt-4 break-words text-ink">{plot.message}</p> : null}
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to={`/plot/${encodeURIComponent(plot.id)}`} className={buttonClassName('primary', 'sm')}>
          View {plot.display_name}'s Plot
        </Link>
        {link ? (
          <OutboundLink href={link} className={buttonClassName('secondary', 'sm')} countFor={plot.id}>
            Visit Website
          </OutboundLink>
        ) : null}
        <ShareMenu plot={plot} />
        <FlagButton plotId={plot.id} onFlagged={onClose} />
      </div>
    </PixelDialogContent>
  );
}
