import * as RadioGroup from '@radix-ui/react-radio-group';
import { ZONES, ZONE_NAMES, type Zone } from '@pixel-atlas/contracts/zones';
import { useId } from 'react';

/** The plot's zone: four choices, nexus by default (spec section 2, /claim). */
export function ZoneRadioGroup({ value, onChange }: { value: Zone; onChange: (zone: Zone) => void }) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <span id={`${id}-label`} className="text-sm font-semibold text-ink">
        Zone
      </span>
      <RadioGroup.Root
        aria-labelledby={`${id}-label`}
        value={value}
        onValueChange={(next) => onChange(next as Zone)}
        className="grid gap-2 sm:grid-cols-2"
      >
        {ZONES.map((zone) => (
          <div
            key={zone}
            className="flex min-h-11 items-center gap-3 border-2 border-border bg-night px-3 has-[[data-state=checked]]:border-gold"
          >
            <RadioGroup.Item
              id={`${id}-${zone}`}
              value={zone}
              className="grid size-5 shrink-0 place-items-center rounded-full border-2 border-border"
            >
              <RadioGroup.Indicator className="block size-2.5 rounded-full bg-gold" />
            </RadioGroup.Item>
            <label htmlFor={`${id}-${zone}`} className="flex-1 cursor-pointer py-2 text-sm text-ink">
              {ZONE_NAMES[zone]}
            </label>
          </div>
        ))}
      </RadioGroup.Root>
    </div>
  );
}
