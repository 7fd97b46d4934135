import * as RadioGroup from '@radix-ui/react-radio-group';
import { useId, type ReactNode } from 'react';

interface LabelledRadioGridProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The items; `id` prefixes their ids, so each label can name its radio. */
  children: (id: string) => ReactNode;
}

/** A radio group named by a visible label, its choices in two columns from the small breakpoint: the claim's tier and zone. */
export function LabelledRadioGrid({ label, value, onValueChange, children }: LabelledRadioGridProps) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <span id={`${id}-label`} className="text-sm font-semibold text-ink">
        {label}
      </span>
      <RadioGroup.Root aria-labelledby={`${id}-label`} value={value} onValueChange={onValueChange} className="grid gap-2 sm:grid-cols-2">
        {children(id)}
      </RadioGroup.Root>
    </div>
  );
}
