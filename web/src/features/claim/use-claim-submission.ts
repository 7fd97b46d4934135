import type { paths } from '@pixel-atlas/api-types';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../hooks/use-toast.ts';
import { api, dataOf } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { PLOTS_QUERY_KEY, USER_PLOTS_QUERY_KEY } from '../../api/queries.ts';
import {
  AUTO_CLAIM_FAILED_FALLBACK,
  CLAIM_FAILED_FALLBACK,
  CLAIM_TOASTS,
  UNDER_REVIEW_TITLE,
  claimFailureMessage,
} from './claim-messages.ts';

/** What POST /api/claim-plot takes, in the API document's words (the server fills no defaults the web leaves out). */
export type ClaimPlotBody = NonNullable<paths['/api/claim-plot']['post']['requestBody']>['content']['application/json'];

export interface ClaimSubmission {
  payload: ClaimPlotBody;
  /** true for the automatic submit of a pending claim, false for CONFIRM & CLAIM. */
  auto: boolean;
}

export interface ClaimSubmissionHandlers {
  /** `manageToken`: the owner's private link, when this claim created the plot (shown once). */
  onClaimed: (plot: Plot, underReview: boolean, manageToken?: string) => void;
  /** The footprint is no longer claimable (taken meanwhile, or not land): pick another spot. */
  onPositionLost: () => void;
  /** Any other failure, after its toast. */
  onFailed: (auto: boolean) => void;
}

/**
 * POST /api/claim-plot with the spec's toasts: the review warning, the two failure fallbacks, and a
 * lost footprint (409 TILE_UNAVAILABLE / 400 INVALID_LOCATION), which keeps the paid entitlement.
 */
export function useClaimSubmission(handlers: ClaimSubmissionHandlers) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ payload }: ClaimSubmission) => dataOf(api.POST('/api/claim-plot', { body: payload })),
    onSuccess: (response) => {
      if (response.warning) toast({ title: UNDER_REVIEW_TITLE, description: response.warning });
      void queryClient.invalidateQueries({ queryKey: PLOTS_QUERY_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: USER_PLOTS_QUERY_KEY });
      handlers.onClaimed(response.plot, Boolean(response.warning), response.manage_token);
    },
    onError: (error, { auto }) => {
      const code = errorCode(error);
      if (code === 'TILE_UNAVAILABLE' || code === 'INVALID_LOCATION') {
        toast(code === 'TILE_UNAVAILABLE' ? CLAIM_TOASTS.tileUnavailable : CLAIM_TOASTS.invalidLocation);
        handlers.onPositionLost();
        return;
      }
      toast({
        title: 'Error',
        description: claimFailureMessage(error, auto ? AUTO_CLAIM_FAILED_FALLBACK : CLAIM_FAILED_FALLBACK),
        variant: 'destructive',
      });
      handlers.onFailed(auto);
    },
  });
}
