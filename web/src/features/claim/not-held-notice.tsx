import * as Dialog from '@radix-ui/react-dialog';
import { NOT_HELD_NOTICE } from '@pixel-atlas/contracts/payments';
import { buttonClassName } from '../../components/button-styles.ts';
import { PixelDialogContent } from '../../components/pixel-dialog.tsx';

interface NotHeldNoticeProps {
  open: boolean;
  /** 'Continue to Payment': the checkout goes on, unheld. */
  onContinue: () => void;
  /** 'Choose Another Spot' (or Escape, the backdrop): the checkout is dropped. */
  onBack: () => void;
}

/**
 * Too much land is held for checkouts right now, so this checkout could not keep the spot for the buyer. The sale goes
 * on if they want it: they are told before paying, and if the spot is taken meanwhile /claim lets them pick another.
 */
export function NotHeldNotice({ open, onContinue, onBack }: NotHeldNoticeProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onBack())}>
      {open ? (
        <PixelDialogContent title="Spot Not Reserved" description={NOT_HELD_NOTICE}>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button type="button" className={buttonClassName('secondary')} onClick={onBack}>
              CHOOSE ANOTHER SPOT
            </button>
            <button type="button" className={buttonClassName('primary')} onClick={onContinue}>
              CONTINUE TO PAYMENT
            </button>
          </div>
        </PixelDialogContent>
      ) : null}
    </Dialog.Root>
  );
}
