import * as ToastPrimitive from '@radix-ui/react-toast';
import { useToast, type ToastEntry } from '../hooks/use-toast.ts';

const VARIANT_CLASSES: Record<ToastEntry['variant'], string> = {
  default: 'border-border bg-panel text-ink',
  destructive: 'border-danger-edge bg-danger text-white',
};

/** Renders the single active toast; mount once near the root. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <ToastPrimitive.Provider swipeDirection="right">
      {toasts.map((entry) => (
        <ToastPrimitive.Root
          key={entry.id}
          open={entry.open}
          duration={entry.duration}
          onOpenChange={(open) => {
            if (!open) dismiss(entry.id);
          }}
          data-variant={entry.variant}
          className={`toast-root pointer-events-auto relative flex w-full items-start gap-3 border-2 p-4 pr-10 shadow-pixel ${VARIANT_CLASSES[entry.variant]}`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="font-pixel text-xs leading-relaxed">{entry.title}</ToastPrimitive.Title>
            {entry.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">{entry.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close notification"
            className="absolute top-1 right-1 grid size-11 place-items-center text-lg leading-none opacity-80 hover:opacity-100"
          >
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:right-0 md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
