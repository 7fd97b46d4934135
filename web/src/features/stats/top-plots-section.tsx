import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { topPlotsQuery } from '../../api/admin-queries.ts';
import { api, dataOf } from '../../api/client.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';
import { buttonClassName } from '../../components/button-styles.ts';
import { LoadingOrFailed } from '../../components/loading-or-failed.tsx';
import { toast } from '../../hooks/use-toast.ts';

/**
 * /admin 'Top Plots': the most viewed plots of the last 30 days (views, profile opens, link visits), and the admin's
 * way to cut off a plot's owner link (a leaked link, a dispute): no token opens that plot afterwards.
 */
export function TopPlotsSection() {
  const top = useQuery(topPlotsQuery());
  const revoke = useMutation({
    mutationFn: (plotId: string) => dataOf(api.POST('/api/admin/plots/{id}/revoke-manage-link', { params: { path: { id: plotId } } })),
    onSuccess: ({ revoked }) =>
      toast({
        title: revoked ? 'Owner Link Revoked' : 'No Owner Link',
        description: revoked ? 'That plot’s owner link no longer works.' : 'That plot had no working owner link.',
      }),
    onError: (error) =>
      toast({ title: 'Error', description: errorMessageForDisplay(error, 'The owner link could not be revoked.'), variant: 'destructive' }),
  });
  if (!top.isSuccess) return <LoadingOrFailed query={top} loading="Loading top plots…" failed="Could not load the top plots." />;
  if (!top.data.plots.length)
    return (
      <p className="border-2 border-dashed border-border p-6 text-center text-ink-muted">
        No visits counted in the last {top.data.days} days
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="top-plots">
        <caption className="mb-2 text-left text-ink-muted">
          Last {top.data.days} days, most viewed first. Counts only; obvious robots are not counted.
        </caption>
        <thead className="text-ink-muted">
          <tr>
            <th scope="col" className="py-1 pr-3">
              Plot
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Views
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Profile opens
            </th>
            <th scope="col" className="py-1 pr-3 text-right">
              Link visits
            </th>
            <th scope="col" className="py-1">
              <span className="sr-only">Owner link</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {top.data.plots.map((plot) => (
            <tr key={plot.plotId} className="border-t-2 border-border">
              <th scope="row" className="py-2 pr-3 font-normal">
                <Link to={`/plot/${encodeURIComponent(plot.plotId)}`} className="text-sky underline">
                  {plot.displayName}
                </Link>
              </th>
              <td className="py-2 pr-3 text-right tabular-nums">{plot.views}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{plot.profileOpens}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{plot.clicks}</td>
              <td className="py-2 text-right">
                <button
                  type="button"
                  className={buttonClassName('ghost', 'sm')}
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(plot.plotId)}
                >
                  Revoke owner link
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
