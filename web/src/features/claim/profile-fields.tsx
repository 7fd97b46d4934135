import { DISPLAY_NAME_MAX, MESSAGE_MAX } from '@pixel-atlas/contracts/plots';
import { useId } from 'react';
import { CharacterCounter } from '../../components/character-counter.tsx';
import { FormField, inputClassName } from '../../components/form-field.tsx';
import type { FieldErrors, ProfileDraft, ProfileField } from './profile-validation.ts';

interface ProfileFieldsProps {
  draft: ProfileDraft;
  errors: FieldErrors;
  onChange: (field: ProfileField, value: string) => void;
}

/** Display name (max 30), message (max 140 with its counter) and the optional link, errors under each. */
export function ProfileFields({ draft, errors, onChange }: ProfileFieldsProps) {
  const id = useId();
  const counterId = `${id}-message-count`;
  return (
    <>
      <FormField id={`${id}-name`} label="Display name" error={errors.display_name}>
        {({ id: inputId, errorId, invalid }) => (
          <input
            id={inputId}
            name="display_name"
            className={inputClassName}
            value={draft.display_name}
            maxLength={DISPLAY_NAME_MAX}
            autoComplete="nickname"
            aria-invalid={invalid || undefined}
            aria-describedby={errorId}
            onChange={(event) => onChange('display_name', event.target.value)}
          />
        )}
      </FormField>
      <FormField id={`${id}-message`} label="Message" error={errors.message}>
        {({ id: inputId, errorId, invalid }) => (
          <>
            <textarea
              id={inputId}
              name="message"
              rows={3}
              className={`${inputClassName} resize-y`}
              value={draft.message}
              maxLength={MESSAGE_MAX}
              aria-invalid={invalid || undefined}
              aria-describedby={[counterId, errorId].filter(Boolean).join(' ')}
              onChange={(event) => onChange('message', event.target.value.slice(0, MESSAGE_MAX))}
            />
            <CharacterCounter id={counterId} count={draft.message.length} />
          </>
        )}
      </FormField>
      <FormField id={`${id}-link`} label="Link (optional)" error={errors.link}>
        {({ id: inputId, errorId, invalid }) => (
          <input
            id={inputId}
            name="link"
            type="url"
            inputMode="url"
            placeholder="https://"
            className={inputClassName}
            value={draft.link}
            autoComplete="url"
            aria-invalid={invalid || undefined}
            aria-describedby={errorId}
            onChange={(event) => onChange('link', event.target.value)}
          />
        )}
      </FormField>
    </>
  );
}
