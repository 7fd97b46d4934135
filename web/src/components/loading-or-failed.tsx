import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessageForDisplay } from '../api/errors.ts';
import { buttonClassName } from './button-styles.ts';

/**
 * An admin section's list before it can show it: a loading line, or the server's message (else `failed`) with a way
 * to ask again. The section renders its data itself once the query has succeeded.
 */
export function LoadingOrFailed({ query, loading, failed }: { query: UseQueryResult; loading: string; failed: string }) {
  if (!query.isError) {
    return (
      <p role="status" className="text-ink-muted">
        {loading}
      </p>
    );
  }
  return (
    <div role="alert">
      <p className="text-ink">{errorMessageForDisplay(query.error, failed)}</p>
      <button type="button" className={buttonClassName('secondary', 'sm', 'mt-3')} onClick={() => void query.refetch()}>
        Try again
      </button>
    </div>
  );
}
