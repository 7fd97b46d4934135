/**
 * Marks the element a toast is shown in. Dialogs treat a press there as inside them, so closing a
 * notification never closes the dialog under it. (Its own module: dialogs must not pull in the toaster.)
 */
export const TOAST_VIEWPORT_ATTRIBUTE = 'data-toast-viewport';
