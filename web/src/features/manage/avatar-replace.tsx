import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../hooks/use-toast.ts';
import { errorMessageForDisplay } from '../../api/errors.ts';
import { AvatarUploader } from '../claim/avatar-uploader.tsx';
import { replaceAvatar } from './manage-actions.ts';

/** A new avatar through the claim's own editor (drop, crop, save); the server checks and re-encodes it the same way. */
export function AvatarReplace({ token, disabled, onSaved }: { token: string; disabled: boolean; onSaved: () => void }) {
  const [avatar, setAvatar] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (dataUrl: string) => replaceAvatar(token, dataUrl),
    onSuccess: () => {
      toast({ title: 'Avatar Updated', description: 'Your plot shows its new avatar now.' });
      setAvatar(null);
      onSaved();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessageForDisplay(error, 'Your avatar could not be saved. Please try again.'),
        variant: 'destructive',
      }),
  });
  if (disabled) return <p className="text-sm text-ink-muted">You can change your avatar once your plot has been approved.</p>;
  return (
    <div aria-busy={upload.isPending || undefined}>
      <AvatarUploader
        shape="square"
        value={avatar}
        onChange={(dataUrl) => {
          setAvatar(dataUrl);
          if (dataUrl) upload.mutate(dataUrl);
        }}
      />
    </div>
  );
}
