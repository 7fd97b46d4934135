import * as RadioGroup from '@radix-ui/react-radio-group';
import { ZONES, ZONE_NAMES, type Zone } from '@pixel-atlas/contracts/zones';
import { LabelledRadioGrid } from './labelled-radio-grid.tsx';

/** The plot's zone: four choices, nexus by default (spec section 2, /claim). */
export function ZoneRadioGroup({ value, onChange }: { value: Zone; onChange: (zone: Zone) => void }) {
  return (
    <LabelledRadioGrid label="Zone" value={value} onValueChange={(next) => onChange(next as Zone)}>
      {(id) =>
        ZONES.map((zone) => (
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
        ))
      }
    </LabelledRadioGrid>
  );
}
