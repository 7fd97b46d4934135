import { flattenError, type ZodError } from 'zod';

/** One message per field. */
export type FieldErrors<T> = { [K in keyof T]?: string };

/** The first message the schema gave for each field (spec: field errors show under each field). */
export function firstErrorPerField<T>(error: ZodError<T>): FieldErrors<T> {
  const { fieldErrors } = flattenError(error);
  const errors: FieldErrors<T> = {};
  for (const field in fieldErrors) errors[field] = fieldErrors[field]?.[0];
  return errors;
}
