import { DISPLAY_NAME_MAX, MESSAGE_MAX } from '@pixel-atlas/contracts/plots';
import { useId, useState } from 'react';
import { CharacterCounter } from '../../components/character-counter.tsx';
import { FormField, inputClassName, TextField } from '../../components/form-field.tsx';
import { validateProfile, type ProfileErrors, type ProfileDraft, type ProfileField } from './profile-validation.ts';

interface ProfileFieldsProps {
  draft: ProfileDraft;
  errors: ProfileErrors;
  onChange: (field: ProfileField, value: string) => void;
}

/** Display name (max 30), message (max 140 with its counter) and the optional link, errors under each. */
export function ProfileFields({ draft, errors: submitErrors, onChange }: ProfileFieldsProps) {
  const id = useId();
  // A field left with something wrong in it says so at once (e.g. 'https://exa mple.com'), not only after
  // PAY & CLAIM; an empty field is not judged until submit. Typing in a field clears its message.
  const [leftErrors, setLeftErrors] = useState<ProfileErrors>({});
  const errors: ProfileErrors = { ...leftErrors, ...pickDefined(submitErrors) };
  const judgeOnLeave = (field: ProfileField) => {
    if (!draft[field].trim()) return;
    const error = validateProfile(draft)[field];
    setLeftErrors((current) => ({ ...current, [field]: error }));
  };
  const change = (field: ProfileField, value: string) => {
    setLeftErrors((current) => ({ ...current, [field]: undefined }));
    onChange(field, value);
  };
  return (
    <>
      <TextField
        id={`${id}-name`}
        label="Display name"
        error={errors.display_name}
        name="display_name"
        value={draft.display_name}
        maxLength={DISPLAY_NAME_MAX}
        autoComplete="nickname"
        onValueChange={(value) => change('display_name', value)}
        onBlur={() => judgeOnLeave('display_name')}
      />
      <MessageAndLinkFields idPrefix={id} draft={draft} errors={errors} onChange={change} onBlur={judgeOnLeave} />
    </>
  );
}

interface MessageAndLinkFieldsProps {
  idPrefix: string;
  draft: { message: string; link: string };
  errors: { message?: string; link?: string };
  onChange: (field: 'message' | 'link', value: string) => void;
  onBlur?: (field: 'message' | 'link') => void;
}

/** The message (max 140 with its counter) and the optional link: the claim's fields, also the owner page's. */
export function MessageAndLinkFields({ idPrefix, draft, errors, onChange, onBlur }: MessageAndLinkFieldsProps) {
  const counterId = `${idPrefix}-message-count`;
  return (
    <>
      <FormField id={`${idPrefix}-message`} label="Message" error={errors.message}>
        {(control) => (
          <>
            <textarea
              {...control}
              name="message"
              rows={3}
              className={`${inputClassName} resize-y`}
              value={draft.message}
              maxLength={MESSAGE_MAX}
              aria-describedby={[counterId, control['aria-describedby']].filter(Boolean).join(' ')}
              onChange={(event) => onChange('message', event.target.value.slice(0, MESSAGE_MAX))}
              onBlur={() => onBlur?.('message')}
            />
            <CharacterCounter id={counterId} count={draft.message.length} />
          </>
        )}
      </FormField>
      <TextField
        id={`${idPrefix}-link`}
        label="Link (optional)"
        error={errors.link}
        name="link"
        type="url"
        inputMode="url"
        placeholder="https://"
        value={draft.link}
        autoComplete="url"
        onValueChange={(value) => onChange('link', value)}
        onBlur={() => onBlur?.('link')}
      />
    </>
  );
}

function pickDefined(errors: ProfileErrors): ProfileErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined));
}
