import { useId, useState } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { inputClassName } from '../../components/form-field.tsx';
import { absoluteUrl, usePageSettings } from '../../lib/page-settings.ts';
import { SITE_NAME } from '../../lib/site.ts';

/** The badge's size in CSS pixels, as the gateway draws it (services/gateway/src/domain/render-badge.ts). */
export const BADGE_WIDTH = 200;
export const BADGE_HEIGHT = 40;

export function badgePath(plotId: string): string {
  return `/badge/${encodeURIComponent(plotId)}.svg`;
}

/** The HTML an owner pastes into their own site: the badge, linking to the plot's page. */
export function badgeSnippet(origin: string, plotId: string): string {
  const page = absoluteUrl(origin, `/plot/${encodeURIComponent(plotId)}`);
  const image = absoluteUrl(origin, badgePath(plotId));
  return `<a href="${page}"><img src="${image}" alt="Find me on ${SITE_NAME}" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}"></a>`;
}

/**
 * "Embed a badge": a small image for the owner's own site that links back to their plot (each load of it is counted
 * in their stats as a badge view), and the HTML to paste, with a copy button.
 */
export function EmbedBadge({ plotId }: { plotId: string }) {
  const id = useId();
  const { origin } = usePageSettings();
  const snippet = badgeSnippet(origin, plotId);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(true);
    } catch {
      // No clipboard (permissions, an old browser): the code is selected, ready to copy by hand.
      (document.getElementById(`${id}-code`) as HTMLTextAreaElement | null)?.select();
    }
  };
  return (
    <div className="grid gap-3">
      <p className="text-sm text-ink">
        Put this badge on your own site: it links visitors to your plot, and every time it is shown it counts as a badge view below.
      </p>
      <img src={badgePath(plotId)} alt={`Find me on ${SITE_NAME}`} width={BADGE_WIDTH} height={BADGE_HEIGHT} className="h-10 w-[200px]" />
      <label htmlFor={`${id}-code`} className="text-sm text-ink-muted">
        HTML to paste
      </label>
      <textarea
        id={`${id}-code`}
        readOnly
        rows={3}
        value={snippet}
        className={`${inputClassName} resize-none font-mono text-xs break-all`}
        onFocus={(event) => event.target.select()}
      />
      <button type="button" className={buttonClassName('primary', 'sm', 'w-fit')} onClick={() => void copy()}>
        <span aria-live="polite">{copied ? 'Copied!' : 'Copy Code'}</span>
      </button>
    </div>
  );
}
