import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useCheckoutCancelReturn } from '../../features/claim/checkout-cancel-return.ts';
import type { Tile } from '../../features/claim/claim-popup.tsx';
import { handleReservedTileClick, useReservedFootprints } from '../../features/claim/reserved-land.ts';
import { storedTier } from '../../features/claim/stored-tier.ts';
import { flyToPlot } from '../../features/plots/fly-to-plot.ts';
import type { AtlasPlot } from '../../map/components/atlas-plot.ts';
import { TIER_GUIDANCE_EVENT, type TierGuidanceDetail } from '../../lib/tier-guidance.ts';
import { AtlasMap } from '../../map/components/AtlasMap.tsx';

/**
 * The claim popup (its form, the avatar editor, the checkout's schemas) is most of this screen's code and none of what
 * the map needs to come alive: on a phone, evaluating it with the map was one of the longest tasks of the first load.
 * So are the plot's profile popup (share menu, flag button, avatar), 'Find Plots' (the list and its filters) and the
 * tier guidance dialog (with them, the Radix dialog): none is open on the first screen. They load at the visitor's
 * first touch, click or key press on the page (a tap's pointerdown comes before its click), or when one is opened, and
 * each stays mounted once opened.
 */
const loadClaimPopup = () => import('../../features/claim/claim-popup.tsx');
const ClaimPopup = lazy(() => loadClaimPopup().then((module) => ({ default: module.ClaimPopup })));
const loadPlotProfilePopup = () => import('../../features/plots/plot-profile-popup.tsx');
const PlotProfilePopup = lazy(() => loadPlotProfilePopup().then((module) => ({ default: module.PlotProfilePopup })));
const loadFindPlotsDialog = () => import('../../features/plots/find-plots-dialog.tsx');
const FindPlotsDialog = lazy(() => loadFindPlotsDialog().then((module) => ({ default: module.FindPlotsDialog })));
const loadTierGuidanceDialog = () => import('../../features/claim/tier-guidance-dialog.tsx');
const TierGuidanceDialog = lazy(() => loadTierGuidanceDialog().then((module) => ({ default: module.TierGuidanceDialog })));
const loadDeferredDialogs = () => Promise.all([loadClaimPopup(), loadPlotProfilePopup(), loadFindPlotsDialog(), loadTierGuidanceDialog()]);

/**
 * The tier guidance dialog answers the 'tierGuidance' event, but is loaded only when the first one comes: this keeps
 * that event's detail for the dialog to answer when it mounts (it listens itself from then on).
 */
function useGuidanceUntilDialogMounts(): TierGuidanceDetail | null {
  const [first, setFirst] = useState<TierGuidanceDetail | null>(null);
  useEffect(() => {
    if (first) return;
    const onGuidance = (event: Event) => setFirst((event as CustomEvent<TierGuidanceDetail | undefined>).detail ?? {});
    window.addEventListener(TIER_GUIDANCE_EVENT, onGuidance);
    return () => window.removeEventListener(TIER_GUIDANCE_EVENT, onGuidance);
  }, [first]);
  return first;
}

function useLoadOnFirstInteraction(load: () => Promise<unknown>) {
  useEffect(() => {
    const warm = () => {
      stop();
      void load();
    };
    const stop = () => {
      window.removeEventListener('pointerdown', warm, true);
      window.removeEventListener('keydown', warm, true);
    };
    window.addEventListener('pointerdown', warm, true);
    window.addEventListener('keydown', warm, true);
    return stop;
  }, [load]);
}

/**
 * The home map and everything it opens: the claim popup for an empty land tile, the profile popup
 * for a plot, 'Find Plots', and the tier guidance dialog with auto-assign.
 */
export function HomeMap() {
  const [claimTile, setClaimTile] = useState<Tile | null>(null);
  const [claimOpen, setClaimOpen] = useState(false);
  const [claimMounted, setClaimMounted] = useState(false);
  const [claimTier, setClaimTier] = useState<Tier | undefined>(undefined);
  const [pinTier, setPinTier] = useState<Tier>(storedTier);
  const [profilePlot, setProfilePlot] = useState<AtlasPlot | null>(null);
  const [profileMounted, setProfileMounted] = useState(false);
  const [findOpen, setFindOpen] = useState(false);
  const [findMounted, setFindMounted] = useState(false);
  const reservedFootprints = useReservedFootprints();
  const firstGuidance = useGuidanceUntilDialogMounts();

  const openClaim = (tile: Tile, tier?: Tier) => {
    setProfilePlot(null);
    setClaimTile(tile);
    setClaimTier(tier);
    setPinTier(tier ?? storedTier());
    setClaimMounted(true);
    setClaimOpen(true);
  };
  useLoadOnFirstInteraction(loadDeferredDialogs);
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
          setProfileMounted(true);
        }}
        onFindPlotsClick={() => {
          setFindOpen(true);
          setFindMounted(true);
        }}
        reservedFootprints={reservedFootprints}
        onReservedTileClick={(footprint) => handleReservedTileClick(footprint, openClaim)}
        selectedTier={pinTier}
        selectedTile={claimTile}
      />
      {claimMounted ? (
        <Suspense fallback={null}>
          <ClaimPopup tile={claimTile} open={claimOpen} onOpenChange={setClaimOpen} initialTier={claimTier} onTierChange={setPinTier} />
        </Suspense>
      ) : null}
      {profileMounted ? (
        <Suspense fallback={null}>
          <PlotProfilePopup plot={profilePlot} onClose={() => setProfilePlot(null)} />
        </Suspense>
      ) : null}
      {findMounted ? (
        <Suspense fallback={null}>
          <FindPlotsDialog open={findOpen} onOpenChange={setFindOpen} onChoosePlot={flyToPlot} />
        </Suspense>
      ) : null}
      {firstGuidance ? (
        <Suspense fallback={null}>
          <TierGuidanceDialog
            initialGuidance={firstGuidance}
            onTierSelected={setPinTier}
            onAutoAssign={(tile, tier) => {
              flyToPlot({ ...tile, tier });
              openClaim(tile, tier);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
