import { useMutation } from '@tanstack/react-query';
import { buttonClassName } from '../../components/button-styles.ts';
import { toast } from '../../hooks/use-toast.ts';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';

/** Spec section 9: flag toasts show for 3000 ms. */
const FLAG_TOAST_MS = 3000;

/**
 * Spec section 2: report a plot for review; disabled while the request runs. A visitor who already
 * flagged this plot is told the same as the first time (their flag counts once either way).
 */
export function FlagButton({ plotId, onFlagged }: { plotId: string; onFlagged?: () => void }) {
  const flag = useMutation({
    mutationFn: () => api.POST('/api/flag-plot', { body: { plotId } }),
    onSuccess: () => flagged(),
    onError: (error) => {
      if (errorCode(error) === 'ALREADY_FLAGGED') {
        flagged();
        return;
      }
      toast({ title: 'Error', description: 'Failed to flag content. Please try again.', variant: 'destructive', duration: FLAG_TOAST_MS });
    },
  });

  function flagged() {
    toast({ title: 'Content Flagged', description: 'Thank you for helping keep the community safe.', duration: FLAG_TOAST_MS });
    onFlagged?.();
  }

  return (
    <button
      type="button"
      className={buttonClassName('danger', 'sm')}
      disabled={flag.isPending}
      aria-busy={flag.isPending || undefined}
      onClick={() => flag.mutate()}
    >
      {flag.isPending ? 'Flagging...' : 'Flag Content'}
    </button>
  );
}
