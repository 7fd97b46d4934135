import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useState } from 'react';
import { useCheckoutCancelReturn } from '../../features/claim/checkout-cancel-return.ts';
import { ClaimPopup, type Tile } from '../../features/claim/claim-popup.tsx';
import { handleReservedTileClick, useReservedFootprints } from '../../features/claim/reserved-land.ts';
import { storedTier } from '../../features/claim/stored-tier.ts';
import { TierGuidanceDialog } from '../../features/claim/tier-guidance-dialog.tsx';
import { FindPlotsDialog } from '../../features/plots/find-plots-dialog.tsx';
import { flyToPlot } from '../../features/plots/fly-to-plot.ts';
import { PlotProfilePopup } from '../../features/plots/plot-profile-popup.tsx';
import type { AtlasPlot } from '../../map/components/atlas-plot.ts';
import { AtlasMap } from '../../map/components/AtlasMap.tsx';

/**
 * The home map and everything it opens: the claim popup for an empty land tile, the profile popup
 * for a plot, 'Find Plots', and the tier guidance dialog with auto-assign.
 */
export function HomeMap() {
  const [claimTile, setClaimTile] = useState<Tile | null>(null);
  const [claimOpen, setClaimOpen] = useState(false);
  const [claimTier, setClaimTier] = useState<Tier | undefined>(undefined);
  const [pinTier, setPinTier] = useState<Tier>(storedTier);
  const [profilePlot, setProfilePlot] = useState<AtlasPlot | null>(null);
  const [findOpen, setFindOpen] = useState(false);
  const reservedFootprints = useReservedFootprints();

  const openClaim = (tile: Tile, tier?: Tier) => {
    setProfilePlot(null);
    setClaimTile(tile);
    setClaimTier(tier);
    setPinTier(tier ?? storedTier());
    setClaimOpen(true);
  };
  useCheckoutCancelReturn((tile, tier) => {
    flyToPlot({ ...tile, tier });
    openClaim(tile, tier);
  });

  return (
    <>
      <AtlasMap
        onLandTileClick={(tile) => openClaim(tile)}
        onPlotClick={(plot) => {
          setClaimOpen(false);
          setProfilePlot(plot);
        }}
        onFindPlotsClick={() => setFindOpen(true)}
        reservedFootprints={reservedFootprints}
        onReservedTileClick={(footprint) => handleReservedTileClick(footprint, openClaim)}
        selectedTier={pinTier}
        selectedTile={claimTile}
      />
      <ClaimPopup tile={claimTile} open={claimOpen} onOpenChange={setClaimOpen} initialTier={claimTier} onTierChange={setPinTier} />
      <PlotProfilePopup plot={profilePlot} onClose={() => setProfilePlot(null)} />
      <FindPlotsDialog open={findOpen} onOpenChange={setFindOpen} onChoosePlot={flyToPlot} />
      <TierGuidanceDialog
        onTierSelected={setPinTier}
        onAutoAssign={(tile, tier) => {
          flyToPlot({ ...tile, tier });
          openClaim(tile, tier);
        }}
      />
    </>
  );
}
