/**
 * The path of the page the gateway rendered and the app took over (main.tsx), until a screen claims it. The gateway
 * counted that page's view when it rendered it: the screen must not count it again.
 */
let takenOver: string | null = null;

export function markServerRenderedPage(pathname: string): void {
  takenOver = pathname;
}

/** True once, for the screen the app mounted over the gateway's page; any later visit counts on its own. */
export function takeServerRenderedPage(pathname: string): boolean {
  if (takenOver !== pathname) return false;
  takenOver = null;
  return true;
}
