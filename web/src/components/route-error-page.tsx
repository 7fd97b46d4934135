import { useRouteError } from 'react-router';
import { buttonClassName } from './button-styles.ts';

/** Last line of defence when a screen throws while rendering: say so plainly and offer a way out. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error('Unhandled error while rendering a route', error);
  return (
    <div className="grid min-h-dvh place-items-center bg-night p-4">
      <div role="alert" className="pixel-panel max-w-md p-8 text-center">
        <h1 className="text-base text-gold">Something went wrong</h1>
        <p className="mt-4 text-ink-muted">This screen hit an unexpected error. Reloading usually fixes it.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button type="button" className={buttonClassName('primary')} onClick={() => window.location.reload()}>
            Reload
          </button>
          <a href="/" className={buttonClassName('secondary')}>
            Back to the Atlas
          </a>
        </div>
      </div>
    </div>
  );
}
