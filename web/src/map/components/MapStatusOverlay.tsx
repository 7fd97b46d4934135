export type MapStatus = 'loading' | 'missing' | 'failed' | 'ready';

/** What covers the canvas while there is nothing to show: loading, no map generated, or a failed load. */
export function MapStatusOverlay({ state, onRetry }: { state: MapStatus; onRetry: () => void }) {
  if (state === 'ready') return null;
  return (
    <div className="absolute inset-0 z-10 grid place-items-center bg-night/80 p-6" role="status" aria-live="polite">
      {state === 'loading' ? (
        <p className="font-pixel text-xs text-ink">Loading the atlas…</p>
      ) : state === 'missing' ? (
        <div className="max-w-sm border-2 border-border bg-panel p-5 text-center shadow-pixel">
          <h2 className="mb-3 text-sm text-gold">Map not available</h2>
          <p className="text-sm text-ink-muted">The atlas map has not been generated yet. Please check back soon.</p>
        </div>
      ) : (
        <div className="max-w-sm border-2 border-border bg-panel p-5 text-center shadow-pixel">
          <h2 className="mb-3 text-sm text-gold">The map could not be loaded</h2>
          <p className="mb-4 text-sm text-ink-muted">Please check your connection and try again.</p>
          <button
            type="button"
            onClick={onRetry}
            className="min-h-11 border-2 border-black bg-gold px-4 py-2 text-xs text-ink-dark shadow-pixel-sm"
          >
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
