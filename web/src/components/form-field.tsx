import type { InputHTMLAttributes, ReactNode } from 'react';

export const inputClassName =
  'block w-full min-h-11 border-2 border-border bg-night px-3 py-2 text-base text-ink placeholder:text-ink-muted/80 ' +
  'aria-[invalid=true]:border-danger-edge focus-visible:border-sky';

/** What a field's control spreads onto itself: the id its label points at, and its error's state and text. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  /** Renders the control, which spreads `control` onto itself. */
  children: (control: FieldControl) => ReactNode;
}

/** Label above, control, then its error right under it (spec: field errors show under each field). */
export function FormField({ id, label, error, children }: FormFieldProps) {
  const errorId = fieldErrorId(id, error);
  return (
    <div className="grid gap-2">
      <label htmlFor={id} id={`${id}-label`} className="text-sm font-semibold text-ink">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': errorId })}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

type TextFieldProps = Omit<FormFieldProps, 'children'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange' | 'aria-invalid' | 'aria-describedby'> & {
    onValueChange: (value: string) => void;
  };

/** A FormField whose control is one text input in the app's look. */
export function TextField({ id, label, error, onValueChange, ...input }: TextFieldProps) {
  return (
    <FormField id={id} label={label} error={error}>
      {(control) => <input {...control} {...input} className={inputClassName} onChange={(event) => onValueChange(event.target.value)} />}
    </FormField>
  );
}

/** The id of a field's error text, while it has one. */
export function fieldErrorId(fieldId: string, error: string | undefined): string | undefined {
  return error ? `${fieldId}-error` : undefined;
}

/** A field's error text, under the field. */
export function FieldError({ id, error }: { id: string | undefined; error: string | undefined }) {
  return error ? (
    <p id={id} className="text-sm text-danger-text">
      {error}
    </p>
  ) : null;
}
