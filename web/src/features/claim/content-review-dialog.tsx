import * as Dialog from '@radix-ui/react-dialog';
import { claimPlotRequestSchema } from '@pixel-atlas/contracts/plots';
import { useState, type FormEvent } from 'react';
import { buttonClassName } from '../../components/button-styles.ts';
import { TextField } from '../../components/form-field.tsx';
import { PixelDialogContent } from '../../components/pixel-dialog.tsx';

interface ContentReviewDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'Create Plot': continue, with the address when one was given. */
  onCreate: (notificationEmail: string | undefined) => void;
  /** 'Skip': continue without an address. */
  onSkip: () => void;
}

const emailSchema = claimPlotRequestSchema.shape.notification_email;

/**
 * Spec section 4, Moderation: the local word screen found a listed word. The claim still goes
 * ahead (the buyer pays, the plot waits for review); the buyer may leave an address to be told.
 */
export function ContentReviewDialog({ open, onOpenChange, onCreate, onSkip }: ContentReviewDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? <ContentReviewBody onCreate={onCreate} onSkip={onSkip} /> : null}
    </Dialog.Root>
  );
}

function ContentReviewBody({ onCreate, onSkip }: Pick<ContentReviewDialogProps, 'onCreate' | 'onSkip'>) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email.trim());
    if (!parsed.success) {
      setError('Please enter a valid email address');
      return;
    }
    onCreate(parsed.data);
  };

  return (
    <PixelDialogContent
      title="Content Under Review"
      description="Some words in your display name or message need a quick look from our team."
    >
      <form noValidate onSubmit={submit} className="grid gap-4">
        <p className="text-sm text-ink">
          Your plot will be created and your payment processed as usual. Our team reviews flagged content within 24 hours, and your plot
          will be visible on the map once approved.
        </p>
        <TextField
          id="review-notification-email"
          label="Email for the review result (optional)"
          error={error}
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={(value) => {
            setEmail(value);
            setError(undefined);
          }}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClassName('secondary')} onClick={onSkip}>
            Skip
          </button>
          <button type="submit" className={buttonClassName('primary')}>
            Create Plot
          </button>
        </div>
      </form>
    </PixelDialogContent>
  );
}
