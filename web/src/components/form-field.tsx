import type { ReactNode } from 'react';

export const inputClassName =
  'block w-full min-h-11 border-2 border-border bg-night px-3 py-2 text-base text-ink placeholder:text-ink-muted/80 ' +
  'aria-[invalid=true]:border-danger-edge focus-visible:border-sky';

interface FormFieldProps {
  id: string;
  label: string;
  error?: string;
  /** Renders the control; receives the ids it must wire for the label and error text. */
  children: (control: { id: string; errorId: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label above, control, then its error right under it (spec: field errors show under each field). */
export function FormField({ id, label, error, children }: FormFieldProps) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="grid gap-2">
      <label htmlFor={id} id={`${id}-label`} className="text-sm font-semibold text-ink">
        {label}
      </label>
      {children({ id, errorId, invalid: Boolean(error) })}
      {error ? (
        <p id={errorId} className="text-sm text-danger-text">
          {error}
        </p>
      ) : null}
    </div>
  );
}
