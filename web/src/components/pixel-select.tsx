import * as SelectPrimitive from '@radix-ui/react-select';
import { useState } from 'react';
import { useInertBehindPopup } from '../hooks/use-inert-behind-popup.ts';
import { inputClassName } from './form-field.tsx';

interface PixelSelectProps {
  id: string;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder: string;
  'aria-invalid'?: boolean | undefined;
  'aria-describedby'?: string | undefined;
}

/** Radix Select in the app's look; an empty value shows the placeholder. */
export function PixelSelect({ id, name, value, onValueChange, options, placeholder, ...aria }: PixelSelectProps) {
  const [open, setOpen] = useState(false);
  useInertBehindPopup(open);
  return (
    <SelectPrimitive.Root name={name} value={value} onValueChange={onValueChange} open={open} onOpenChange={setOpen}>
      <SelectPrimitive.Trigger
        id={id}
        aria-labelledby={`${id}-label ${id}`}
        aria-invalid={aria['aria-invalid'] || undefined}
        aria-describedby={aria['aria-describedby']}
        className={`${inputClassName} flex items-center justify-between gap-2 text-left font-sans data-[placeholder]:text-ink-muted`}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon aria-hidden="true" className="font-pixel text-[0.6rem]">
          ▼
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-[var(--radix-select-content-available-height)] w-[var(--radix-select-trigger-width)] overflow-hidden border-2 border-border bg-panel shadow-pixel"
        >
          <SelectPrimitive.Viewport className="p-1">
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                className="flex min-h-11 cursor-pointer items-center px-3 text-ink outline-none select-none data-[highlighted]:bg-gold data-[highlighted]:text-ink-dark data-[state=checked]:font-semibold"
              >
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
