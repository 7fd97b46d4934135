import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useId, useState } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { inputClassName } from '../../components/form-field.tsx';
import { toast } from '../../hooks/use-toast.ts';
import { findFreePosition } from './auto-assign.ts';

interface PositionFieldsProps {
  x: string;
  y: string;
  tier: Tier;
  error?: string;
  onChange: (position: { x: string; y: string }) => void;
}

/** Where the plot goes: the top-left tile as x/y, or 'Auto-assign' for a free spot on the lattice. */
export function PositionFields({ x, y, tier, error, onChange }: PositionFieldsProps) {
  const id = useId();
  const [assigning, setAssigning] = useState(false);
  const errorId = error ? `${id}-error` : undefined;

  const autoAssign = async () => {
    setAssigning(true);
    const free = await findFreePosition(tier);
    setAssigning(false);
    if (!free) {
      toast({
        title: 'Tile Unavailable',
        description: 'No free spot was found for this tier. Please enter a position.',
        variant: 'destructive',
      });
      return;
    }
    onChange({ x: String(free.x), y: String(free.y) });
  };

  const input = (axis: 'x' | 'y', value: string) => (
    <label className="grid flex-1 gap-1 text-sm text-ink-muted">
      {axis.toUpperCase()}
      <input
        name={axis}
        type="number"
        inputMode="numeric"
        min={0}
        max={GRID_SIZE - 1}
        step={1}
        className={inputClassName}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        onChange={(event) => onChange({ x, y, [axis]: event.target.value })}
      />
    </label>
  );

  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-semibold text-ink">Position (top-left tile)</legend>
      <div className="flex flex-wrap items-end gap-3">
        {input('x', x)}
        {input('y', y)}
        <button type="button" className={buttonClassName('secondary', 'sm')} disabled={assigning} onClick={() => void autoAssign()}>
          {assigning ? 'Finding...' : 'Auto-assign'}
        </button>
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-danger-text">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
