/**
 * An element's box as layout placed it, in client coordinates, whatever CSS transform it carries. While a zoom is in
 * motion the engine scales the map canvas about its centre on the compositor (engine.ts), so getBoundingClientRect
 * grows and shrinks with the gesture; pointer positions, the viewport size and panel positions must not.
 */
export function layoutBox(element: Element): { left: number; top: number; width: number; height: number } {
  const rect = element.getBoundingClientRect();
  // offsetWidth/offsetHeight ignore transforms; 0 where nothing is laid out (tests), where the rect is all there is.
  const laidOut = element as Partial<Pick<HTMLElement, 'offsetWidth' | 'offsetHeight'>>;
  const width = laidOut.offsetWidth || rect.width;
  const height = laidOut.offsetHeight || rect.height;
  // A scale about the centre leaves the centre where layout put it.
  return { left: rect.left + (rect.width - width) / 2, top: rect.top + (rect.height - height) / 2, width, height };
}
