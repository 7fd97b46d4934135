import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminMeQuery } from '../../api/queries.ts';
import { buttonClassName } from '../../components/button-styles.ts';
import { addPasskeyThroughLink, passkeyFailureMessage } from './passkey-ceremony.ts';

/** The token of a one-time link from `npm run admin:create -- <name> --passkey` (`/admin#passkey=<token>`). */
function linkToken(): string | null {
  return new URLSearchParams(globalThis.location?.hash.slice(1) ?? '').get('passkey');
}

/** Shown above the sign-in form when the page was opened from a one-time passkey link. */
export function PasskeyLink() {
  const [token] = useState(linkToken);
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (value: string) => addPasskeyThroughLink(value),
    onSuccess: (me) => {
      // The token is spent: it must not stay in the address bar or the history.
      history.replaceState(null, '', `${location.pathname}${location.search}`);
      queryClient.setQueryData(adminMeQuery().queryKey, me);
    },
  });
  if (!token) return null;
  return (
    <section aria-labelledby="passkey-link-heading" className="pixel-panel mx-auto mb-6 grid max-w-md gap-4 p-6">
      <h2 id="passkey-link-heading" className="text-sm text-gold">
        Add a passkey
      </h2>
      <p className="text-ink-muted">This link adds a passkey to your admin account and signs you in. It works once.</p>
      {add.isError ? (
        <p role="alert" className="border-2 border-danger-edge bg-danger/20 p-3 text-sm text-ink">
          {passkeyFailureMessage(add.error, 'Could not add the passkey. Please try again.')}
        </p>
      ) : null}
      <button
        type="button"
        className={buttonClassName('primary', 'md', 'w-full')}
        disabled={add.isPending}
        onClick={() => add.mutate(token)}
      >
        {add.isPending ? 'Waiting for your passkey...' : 'Add a passkey'}
      </button>
    </section>
  );
}
