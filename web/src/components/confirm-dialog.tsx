import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { buttonClassName } from './button-styles.ts';
import { PixelDialogContent } from './pixel-dialog.tsx';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in plain words (what is lost, whether it can be undone). */
  description: ReactNode;
  /** The confirming button's words: the action itself ('Reject', 'Make a New Link'), never 'OK'. */
  confirmLabel: string;
  onConfirm: () => void;
  /** A destructive action gets the danger button. */
  destructive?: boolean;
}

/**
 * Asks once before an action that cannot be taken back. The site's dialog (a bottom sheet on phones); Cancel, the
 * backdrop and Escape leave everything as it was, and focus goes back to the button that asked.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  destructive = false,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? (
        <PixelDialogContent title={title} description={description} role="alertdialog">
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close className={buttonClassName('secondary')}>Cancel</Dialog.Close>
            <button
              type="button"
              className={buttonClassName(destructive ? 'danger' : 'primary')}
              onClick={() => {
                onOpenChange(false);
                onConfirm();
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}
