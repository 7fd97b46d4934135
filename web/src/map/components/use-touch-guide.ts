import { useCallback, useState } from 'react';
import { TOUCH_GUIDE_DISMISSED_KEY } from '../../lib/storage-keys.ts';

/** The touch gesture guide: shown until dismissed (or the map is first touched), then gone for the session. */
export function useTouchGuide(): { open: boolean; dismiss: () => void } {
  const [open, setOpen] = useState(() => !touchGuideDismissed());
  const dismiss = useCallback(() => {
    setOpen(false);
    try {
      sessionStorage.setItem(TOUCH_GUIDE_DISMISSED_KEY, 'true');
    } catch {
      // Storage refused (private mode): it stays away for this page at least.
    }
  }, []);
  return { open, dismiss };
}

function touchGuideDismissed(): boolean {
  try {
    return sessionStorage.getItem(TOUCH_GUIDE_DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}
