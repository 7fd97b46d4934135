/** Holds the map's place until the map engine mounts here (web/src/map/ replaces this component). */
export function MapPlaceholder() {
  return (
    <div className="grid h-full w-full place-items-center bg-water" role="status" aria-live="polite">
      <p className="font-pixel text-xs text-ink">Loading the atlas…</p>
    </div>
  );
}
