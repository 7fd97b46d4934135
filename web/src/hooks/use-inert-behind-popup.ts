import { useEffect } from 'react';

/**
 * While a Radix menu or list is open, Radix hides the rest of the page from assistive technology (aria-hidden with a
 * data-aria-hidden marker) and traps focus in the popup, but the links and buttons under that aria-hidden stay
 * focusable, which is what axe's aria-hidden-focus (serious) reports. Making the hidden parts inert as well says the
 * same thing to every tool: nothing behind an open popup can take focus. Only what this hook made inert is restored.
 */
export function useInertBehindPopup(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    let madeInert: Element[] = [];
    // Radix marks the page in the effects of the popup's content, which mounts through a portal after this commit.
    const frame = window.requestAnimationFrame(() => {
      madeInert = [...document.querySelectorAll('[data-aria-hidden="true"]:not([inert])')];
      for (const element of madeInert) element.setAttribute('inert', '');
    });
    return () => {
      window.cancelAnimationFrame(frame);
      for (const element of madeInert) element.removeAttribute('inert');
    };
  }, [open]);
}
