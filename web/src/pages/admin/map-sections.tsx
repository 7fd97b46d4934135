import { MAP_GENERATED_MESSAGE } from '@pixel-atlas/contracts/map';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { toast } from '../../hooks/use-toast.ts';
import { api } from '../../api/client.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';
import { mapLayoutQuery } from '../../api/queries.ts';
import { useMapLayout } from '../../map/use-map-layout.ts';

export function useMapExists(): boolean {
  return Boolean(useMapLayout().data);
}

export function MapStatus() {
  const layout = useMapLayout();
  if (layout.isPending) return <p className="text-ink-muted">Checking the map…</p>;
  if (layout.isError) return <p role="alert">{errorMessageForDisplay(layout.error, 'Could not load the map status.')}</p>;
  if (!layout.data) return <p className="font-pixel text-xs text-danger">No Map Found</p>;
  return (
    <div className="grid gap-1">
      <p className="font-pixel text-xs text-success">Map Generated</p>
      <p>
        <span data-testid="map-tile-count">{layout.data.tiles.length.toLocaleString('en-US')}</span> tiles (
        {layout.data.tiles.filter((t) => t.is_land).length.toLocaleString('en-US')} land), seed “{layout.data.seed}”
      </p>
    </div>
  );
}

export function MapGeneration() {
  const queryClient = useQueryClient();
  const layout = useMapLayout();
  const [success, setSuccess] = useState<string | null>(null);
  const generate = useMutation({
    mutationFn: async () => (await api.POST('/api/admin/generate-map')).data,
    onSuccess: (result) => setSuccess(result?.message ?? MAP_GENERATED_MESSAGE),
    onError: (error) =>
      toast({ title: 'Error', description: errorMessageForDisplay(error, 'Failed to generate map'), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mapLayoutQuery().queryKey }),
  });
  const mapExists = Boolean(layout.data);
  return (
    <div className="grid gap-3">
      <p>Generate the 90×90 world from the configured seed. Only possible when no map exists.</p>
      <button
        type="button"
        className={buttonClassName('primary', 'md', 'w-fit')}
        disabled={generate.isPending || mapExists || layout.isPending}
        onClick={() => {
          setSuccess(null);
          generate.mutate();
        }}
      >
        {generate.isPending ? 'Generating…' : 'Generate Map'}
      </button>
      {success && (
        <p role="status" className="text-success">
          {success}
        </p>
      )}
    </div>
  );
}

export function DangerZone() {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const clear = useMutation({
    mutationFn: () => api.DELETE('/api/admin/map-layout'),
    onError: (error) =>
      toast({ title: 'Error', description: errorMessageForDisplay(error, 'Failed to clear map'), variant: 'destructive' }),
    onSettled: () => {
      setConfirming(false);
      return queryClient.invalidateQueries({ queryKey: mapLayoutQuery().queryKey });
    },
  });
  if (!confirming) {
    return (
      <button type="button" className={buttonClassName('danger', 'md', 'w-fit')} onClick={() => setConfirming(true)}>
        Clear Map Layout
      </button>
    );
  }
  return (
    <div className="grid gap-3" role="alertdialog" aria-labelledby="clear-map-question">
      <p id="clear-map-question">Are you sure you want to clear the map layout?</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClassName('danger')} disabled={clear.isPending} onClick={() => clear.mutate()}>
          {clear.isPending ? 'Clearing…' : 'Yes'}
        </button>
        <button type="button" className={buttonClassName('secondary')} disabled={clear.isPending} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
