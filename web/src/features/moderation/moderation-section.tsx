import type { FlaggedPlot } from '@pixel-atlas/contracts/admin';
import { normalizeTier, tierPlotLabel } from '@pixel-atlas/contracts/tier-catalog';
import { zoneName } from '@pixel-atlas/contracts/zones';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { buttonClassName, type ButtonVariant } from '../../components/button-styles.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingOrFailed } from '../../components/loading-or-failed.tsx';
import { toast } from '../../hooks/use-toast.ts';
import { OutboundLink, safeHttpLink } from '../plots/outbound-link.tsx';
import { flaggedPlotsQuery } from '../../api/admin-queries.ts';
import { api } from '../../api/client.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';
import { PLOTS_QUERY_KEY } from '../../api/queries.ts';

type Decision = 'approve' | 'reject';
interface DecisionRequest {
  plotId: string;
  editId?: string;
  decision: Decision;
  displayName: string;
}

/** What the admin is told once a decision went through. */
function decidedToast({ decision, editId, displayName }: DecisionRequest) {
  if (editId) {
    return decision === 'approve'
      ? { title: 'Edit Approved', description: `${displayName}'s plot shows the new message and link now.` }
      : { title: 'Edit Rejected', description: `${displayName}'s plot keeps its current message and link.` };
  }
  return decision === 'approve'
    ? { title: 'Plot Approved', description: `${displayName}'s plot is visible on the map.` }
    : { title: 'Plot Rejected', description: `${displayName}'s plot was removed from the map.` };
}

const DECISION_BUTTONS: ReadonlyArray<{ decision: Decision; variant: ButtonVariant; label: string; pendingLabel: string }> = [
  { decision: 'approve', variant: 'primary', label: 'Approve', pendingLabel: 'Approving...' },
  { decision: 'reject', variant: 'danger', label: 'Reject', pendingLabel: 'Rejecting...' },
];

/**
 * Spec section 2, /admin 'Content Moderation': the review queue with a pending-count badge;
 * Approve and Reject are both disabled while either request runs; both lists refresh after each.
 */
export function ModerationSection() {
  const queryClient = useQueryClient();
  const flagged = useQuery(flaggedPlotsQuery());
  // Reject removes a plot (or drops an owner's edit) for good: it asks once.
  const [rejecting, setRejecting] = useState<DecisionRequest | null>(null);
  const decide = useMutation({
    mutationFn: ({ plotId, editId, decision }: DecisionRequest) =>
      api.POST(`/api/admin/${decision}-plot`, { body: { plotId, ...(editId && { editId }) } }),
    onSuccess: (_data, request) => toast(decidedToast(request)),
    onError: (error, { decision }) => {
      toast({
        title: 'Error',
        description: errorMessageForDisplay(error, `Failed to ${decision} the plot. Please try again.`),
        variant: 'destructive',
      });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: flaggedPlotsQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: PLOTS_QUERY_KEY, exact: true }),
      ]),
  });

  if (!flagged.isSuccess)
    return <LoadingOrFailed query={flagged} loading="Loading the review queue…" failed="Could not load flagged content." />;

  const items = flagged.data;
  return (
    <div className="grid gap-4">
      <p className="flex items-center gap-3 text-sm text-ink-muted">
        <span
          data-testid="moderation-pending-count"
          className={`inline-grid min-w-8 place-items-center border-2 border-black px-2 py-1 font-pixel text-[0.65rem] ${items.length > 0 ? 'bg-gold text-ink-dark' : 'bg-panel-raised text-ink'}`}
        >
          {items.length}
        </span>
        pending review
      </p>
      {items.length === 0 ? (
        <p className="border-2 border-dashed border-border p-6 text-center text-ink-muted">No content pending review</p>
      ) : (
        <ul className="grid gap-4">
          {items.map((plot) => (
            // A plot can wait twice: for its own review and for an owner's edit (kind 'edit', decided by its edit id).
            <li key={`${plot.id}:${plot.edit_id ?? ''}`}>
              <FlaggedPlotCard
                plot={plot}
                busy={decide.isPending}
                deciding={
                  decide.isPending && decide.variables?.plotId === plot.id && decide.variables.editId === (plot.edit_id ?? undefined)
                    ? decide.variables.decision
                    : null
                }
                onDecide={(decision) => {
                  const request = { plotId: plot.id, editId: plot.edit_id ?? undefined, decision, displayName: plot.display_name };
                  if (decision === 'reject') setRejecting(request);
                  else decide.mutate(request);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={rejecting !== null}
        onOpenChange={(open) => (open ? undefined : setRejecting(null))}
        title={rejecting?.editId ? 'Reject This Edit?' : 'Reject This Plot?'}
        description={
          rejecting?.editId
            ? `${rejecting.displayName}'s plot keeps showing its current message and link, and the owner is told.`
            : `${rejecting?.displayName ?? 'This'}'s plot is removed from the map without a refund, and its owner is told. This cannot be undone.`
        }
        confirmLabel="Reject"
        destructive
        onConfirm={() => {
          if (rejecting) decide.mutate(rejecting);
        }}
      />
    </div>
  );
}

interface FlaggedPlotCardProps {
  plot: FlaggedPlot;
  /** A decision request is running (for any plot): every button waits. */
  busy: boolean;
  deciding: Decision | null;
  onDecide: (decision: Decision) => void;
}

function FlaggedPlotCard({ plot, busy, deciding, onDecide }: FlaggedPlotCardProps) {
  const link = safeHttpLink(plot.link);
  const created = new Date(plot.created_at);
  return (
    // wrap-anywhere (inherited by everything inside): a 140-character word or a 2,000-character link breaks
    // inside the card instead of widening the page past a 390 px phone.
    <article
      aria-label={plot.kind === 'edit' ? `Owner edit of ${plot.display_name}` : `Flagged plot ${plot.display_name}`}
      className="min-w-0 border-2 border-border bg-night p-4 wrap-anywhere"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="min-w-0 font-sans text-base font-semibold text-ink">
          {plot.display_name}
          {plot.kind === 'edit' ? (
            <span className="ml-2 text-xs text-gold">Owner edit: the plot shows its current content until approved</span>
          ) : null}
        </h3>
        <span className="text-xs text-ink-muted">
          {plot.flag_count} {plot.flag_count === 1 ? 'flag' : 'flags'}
          {plot.source === 'screen' || plot.source === 'both' ? ' · auto-screened' : ''}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-ink-muted">Zone</dt>
        <dd className="text-ink">{zoneName(plot.zone)}</dd>
        <dt className="text-ink-muted">Tier</dt>
        <dd className="text-ink">{tierPlotLabel(normalizeTier(plot.tier))}</dd>
        <dt className="text-ink-muted">Position</dt>
        <dd className="text-ink">
          ({plot.x}, {plot.y})
        </dd>
        {plot.current ? (
          <>
            <dt className="text-ink-muted">Now shows</dt>
            <dd className="text-ink-muted">
              {plot.current.message || '—'}
              {plot.current.link ? ` · ${plot.current.link}` : ''}
            </dd>
          </>
        ) : null}
        <dt className="text-ink-muted">{plot.kind === 'edit' ? 'New message' : 'Message'}</dt>
        <dd className="text-ink">{plot.message || '—'}</dd>
        <dt className="text-ink-muted">Link</dt>
        <dd>
          {link ? (
            <OutboundLink href={link} className="text-sky underline">
              {plot.link}
            </OutboundLink>
          ) : (
            <span className="text-ink">{plot.link || '—'}</span>
          )}
        </dd>
        <dt className="text-ink-muted">Created</dt>
        <dd className="text-ink">
          <time dateTime={plot.created_at}>{Number.isNaN(created.getTime()) ? plot.created_at : created.toLocaleString()}</time>
        </dd>
        {plot.reasons.length > 0 ? (
          <>
            <dt className="text-ink-muted">Reasons</dt>
            <dd className="text-ink">
              <ul className="list-disc pl-5">
                {plot.reasons.map((reason, index) => (
                  <li key={`${index}-${reason}`}>{reason}</li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        {DECISION_BUTTONS.map(({ decision, variant, label, pendingLabel }) => (
          <button
            key={decision}
            type="button"
            className={buttonClassName(variant, 'sm')}
            disabled={busy}
            aria-busy={deciding === decision || undefined}
            onClick={() => onDecide(decision)}
          >
            {deciding === decision ? pendingLabel : label}
          </button>
        ))}
      </div>
    </article>
  );
}
