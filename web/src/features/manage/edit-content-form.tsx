import { editPlotContentRequestSchema, type ManagePage } from '@pixel-atlas/contracts/manage';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { toast } from '../../hooks/use-toast.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';
import { MessageAndLinkFields } from '../claim/profile-fields.tsx';
import { editPlotContent } from './manage-actions.ts';
import { firstErrorPerField, type FieldErrors } from '../../lib/field-errors.ts';

type Errors = FieldErrors<{ message: string; link: string }>;

/** The claim's own rules for message and link (the same schema the server applies). */
function validate(draft: { message: string; link: string }): Errors {
  const result = editPlotContentRequestSchema.safeParse(draft);
  if (result.success) return {};
  return firstErrorPerField(result.error);
}

/** Message and link: saved live when the screen passes them, otherwise held for a quick review (the plot keeps its content). */
export function EditContentForm({ token, page, onSaved }: { token: string; page: ManagePage; onSaved: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState({ message: page.plot.message, link: page.plot.link ?? '' });
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: () => editPlotContent(token, { message: draft.message.trim(), link: draft.link.trim() }),
    onSuccess: (result) => {
      if (result.status === 'under_review') toast({ title: 'Changes Under Review', description: result.warning ?? '' });
      else toast({ title: 'Saved', description: 'Your plot shows your new message and link now.' });
      onSaved();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessageForDisplay(error, 'Your changes could not be saved. Please try again.'),
        variant: 'destructive',
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (!Object.keys(found).length) save.mutate();
  };
  const disabled = !page.plot.visible || save.isPending;
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Change your message and link">
      <MessageAndLinkFields
        idPrefix={id}
        draft={draft}
        errors={errors}
        onChange={(field, value) => setDraft((d) => ({ ...d, [field]: value }))}
      />
      <button type="submit" className={buttonClassName('primary', 'md', 'w-fit')} disabled={disabled}>
        {save.isPending ? 'Saving…' : 'Save Changes'}
      </button>
    </form>
  );
}
