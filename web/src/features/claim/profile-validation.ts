import { claimPlotRequestSchema } from '@pixel-atlas/contracts/plots';
import { firstErrorPerField, type FieldErrors } from '../../lib/field-errors.ts';

export interface ProfileDraft {
  display_name: string;
  message: string;
  link: string;
}
export type ProfileField = keyof ProfileDraft;
export type ProfileErrors = FieldErrors<ProfileDraft>;

/** The claim schema's rules for the fields a buyer types (spec section 5), one message per field. */
const profileSchema = claimPlotRequestSchema.pick({ display_name: true, message: true, link: true });

export function validateProfile(draft: ProfileDraft): ProfileErrors {
  const result = profileSchema.safeParse(draft);
  if (result.success) return {};
  return firstErrorPerField(result.error);
}

/** What the server receives for the typed fields: trimmed, no link when none was given. */
export function normalizeProfile(draft: ProfileDraft): { display_name: string; message: string; link?: string } {
  const link = draft.link.trim();
  return { display_name: draft.display_name.trim(), message: draft.message.trim(), ...(link ? { link } : {}) };
}
