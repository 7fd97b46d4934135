import { claimPlotRequestSchema } from '@pixel-atlas/contracts/plots';

export interface ProfileDraft {
  display_name: string;
  message: string;
  link: string;
}
export type ProfileField = keyof ProfileDraft;
export type FieldErrors = Partial<Record<ProfileField, string>>;

/** The claim schema's rules for the fields a buyer types (spec section 5), one message per field. */
const profileSchema = claimPlotRequestSchema.pick({ display_name: true, message: true, link: true });

export function validateProfile(draft: ProfileDraft): FieldErrors {
  const result = profileSchema.safeParse(draft);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ProfileField;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** What the server receives for the typed fields: trimmed, no link when none was given. */
export function normalizeProfile(draft: ProfileDraft): { display_name: string; message: string; link?: string } {
  const link = draft.link.trim();
  return { display_name: draft.display_name.trim(), message: draft.message.trim(), ...(link ? { link } : {}) };
}
