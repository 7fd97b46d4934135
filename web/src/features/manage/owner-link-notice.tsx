import { useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonClassName } from '../../components/button-styles.ts';
import { inputClassName } from '../../components/form-field.tsx';

/** `/manage/<token>` (contracts' manageUrlPath; not imported, so the plot page's chunk stays free of zod). */
export function manageUrlPath(token: string): string {
  return `/manage/${token}`;
}

/** The "Lost your owner link?" page (contracts' OWNER_LINK_RECOVERY_PATH; not imported, for the same reason). */
export const OWNER_LINK_RECOVERY_PATH = '/owner-link';

export function ownerLinkUrl(token: string): string {
  return `${window.location.origin}${manageUrlPath(token)}`;
}

/**
 * The owner's private link, shown once (the server keeps only its hash): where to change the message, link and
 * avatar and see the plot's visits. Copy it now; it is e-mailed too when the buyer left an address.
 */
export function OwnerLinkNotice({ token, onDismiss, className = '' }: { token: string; onDismiss?: () => void; className?: string }) {
  const id = useId();
  const url = ownerLinkUrl(token);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      (document.getElementById(`${id}-url`) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <section aria-labelledby={`${id}-heading`} className={`pixel-panel border-gold p-4 text-left ${className}`} data-testid="owner-link">
      <h2 id={`${id}-heading`} className="text-sm text-gold">
        Your private owner link
      </h2>
      <p className="mt-2 text-sm text-ink">
        Open it to change your message, link and avatar and to see your plot's visits. Keep it safe: anyone with this link can edit your
        plot. We show it only now; it is also in the receipt we e-mail to the address you gave at checkout. Lost it later? Ask for a new one
        on{' '}
        <Link to={OWNER_LINK_RECOVERY_PATH} className="text-sky underline">
          Lost your owner link?
        </Link>
      </p>
      <label htmlFor={`${id}-url`} className="sr-only">
        Owner link
      </label>
      <input
        id={`${id}-url`}
        readOnly
        value={url}
        className={`${inputClassName} mt-3 font-mono text-xs`}
        onFocus={(event) => event.target.select()}
      />
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" className={buttonClassName('primary', 'sm')} onClick={() => void copy()}>
          {copied ? 'Copied!' : 'Copy Link'}
        </button>
        <a href={manageUrlPath(token)} rel="noreferrer" className={buttonClassName('secondary', 'sm')}>
          Open Owner Page
        </a>
        {onDismiss ? (
          <button type="button" className={buttonClassName('ghost', 'sm')} onClick={onDismiss}>
            I've saved it
          </button>
        ) : null}
      </div>
    </section>
  );
}
